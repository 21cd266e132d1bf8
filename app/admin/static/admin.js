// Progressive enhancement only: every admin page and form works without this file.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-confirm-revoke")) return;
  const choice = form.querySelector("input[name=status]:checked");
  if (choice && choice.value === "revoked" &&
      !window.confirm("Revoke this Gene? Revocation is final: it will never be served again.")) {
    event.preventDefault();
  }
});
