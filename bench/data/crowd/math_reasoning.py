"""math_reasoning crowd: competition and applied maths problems the labelled corpus does not hold.

Each `Problem` is a technique the labelled math_reasoning Genes do not cover (totients, Kummer carries, LTE,
the birthday problem, order statistics, Pappus, great-circle distances, epsilon-delta proofs, ...), written
as templates whose slots give every generated Gene its own concrete numbers or setting.
"""

from . import Problem

# --- number theory -----------------------------------------------------------------------------------------

_TOTIENT_N = (
    {"n": "360", "fact": "2^3 * 3^2 * 5"},
    {"n": "1000", "fact": "2^3 * 5^3"},
    {"n": "2024", "fact": "2^3 * 11 * 23"},
    {"n": "1001", "fact": "7 * 11 * 13"},
    {"n": "720", "fact": "2^4 * 3^2 * 5"},
    {"n": "9900", "fact": "2^2 * 3^2 * 5^2 * 11"},
    {"n": "5040", "fact": "2^4 * 3^2 * 5 * 7"},
    {"n": "1155", "fact": "3 * 5 * 7 * 11"},
    {"n": "2025", "fact": "3^4 * 5^2"},
    {"n": "4096", "fact": "2^12"},
)

_TWO_SQUARES_N = (
    {"n": "65", "fact": "5 * 13"},
    {"n": "325", "fact": "5^2 * 13"},
    {"n": "1105", "fact": "5 * 13 * 17"},
    {"n": "2025", "fact": "3^4 * 5^2"},
    {"n": "50", "fact": "2 * 5^2"},
    {"n": "85", "fact": "5 * 17"},
    {"n": "441", "fact": "3^2 * 7^2"},
    {"n": "1000", "fact": "2^3 * 5^3"},
    {"n": "169", "fact": "13^2"},
    {"n": "21", "fact": "3 * 7"},
    {"n": "5525", "fact": "5^2 * 13 * 17"},
    {"n": "130", "fact": "2 * 5 * 13"},
)

NUMBER_THEORY = [
    Problem(
        slug="totient_product_formula_count",
        category="repair",
        summary="Count {what} for n = {n} with Euler's totient: phi(n) = n * prod(1 - 1/p) over the distinct "
        "primes of {n} = {fact}, instead of a hand-made exclusion count",
        task="Solve a number theory counting problem: {question} for n = {n}.",
        preconditions=("The prime factorization of n is known or easy to find",),
        steps=(
            "Reduce the question to phi(n): {reduce}.",
            "Factor {n} = {fact} and keep only the distinct primes; compute phi as n / p * (p - 1) one prime "
            "at a time so every intermediate value stays an integer.",
            "Cross-check with the prime-power form: phi is the product of p^(e-1) (p - 1) over the prime "
            "powers p^e in the factorization.",
            "Confirm with a brute-force count of gcd(k, {n}) == 1 for k from 1 to {n}.",
        ),
        avoid=(
            "Do not put a repeated prime into the product more than once: 2^3 contributes (1 - 1/2) once, "
            "not three times",
            "Do not subtract n/p for every prime and stop: numbers divisible by two of the primes are "
            "removed twice",
        ),
        signals=("euler's totient|phi function", "phi({n})", r"/coprime|relatively prime|lowest terms/i"),
        validation=("python brute_force.py --totient {n}",),
        slots={
            "n": _TOTIENT_N,
            "question": (
                {
                    "question": "count the integers k with 1 <= k <= n and gcd(k, n) = 1",
                    "what": "the integers coprime to n",
                    "reduce": "the count asked for is phi(n) by definition",
                },
                {
                    "question": "count the fractions k/n with 1 <= k < n that are already in lowest terms",
                    "what": "the reduced fractions with denominator n",
                    "reduce": "k/n is reduced exactly when gcd(k, n) = 1, and k = n is not coprime to n > 1",
                },
                {
                    "question": "count the generators of the cyclic group Z_n",
                    "what": "the generators of Z_n",
                    "reduce": "the residue k generates Z_n exactly when gcd(k, n) = 1",
                },
                {
                    "question": "count the step sizes k in 1..n for which jumping k places at a time around "
                    "a circle of n points visits every point",
                    "what": "the full-cycle step sizes on a circle",
                    "reduce": "a walk with step k visits n / gcd(k, n) points, so it covers the circle "
                    "exactly when gcd(k, n) = 1",
                },
                {
                    "question": "count the residues modulo n that have a multiplicative inverse",
                    "what": "the invertible residues",
                    "reduce": "a residue has an inverse modulo n exactly when it is coprime to n (Bezout)",
                },
            ),
        },
    ),
    Problem(
        slug="kummer_carries_binomial_valuation",
        category="explore",
        summary="Find the exponent of {p} in C({n}, {k}) with Kummer's theorem: count the carries when {k} "
        "and {nk} are added in base {p}",
        task="Find the largest power of {p} that divides the binomial coefficient C({n}, {k}).",
        preconditions=("The prime p is given and n, k are exact integers",),
        steps=(
            "Write {k} and {nk} (they sum to {n}) in base {p}, least significant digit first.",
            "Add them digit by digit in base {p} and count the carries; by Kummer's theorem that count is "
            "the exponent of {p} in C({n}, {k}).",
            "Cross-check with Legendre's formula: the exponent is v(n!) - v(k!) - v((n - k)!) where "
            "v(m!) = (m - s(m)) / ({p} - 1) and s(m) is the base-{p} digit sum of m.",
            "Confirm on the exact integer: math.comb({n}, {k}) divided by {p} until the remainder is "
            "nonzero.",
        ),
        avoid=(
            "Do not look at the base-{p} digits of C({n}, {k}) itself: the carries live in the addition {k} "
            "+ {nk}",
            "Do not use Lucas's theorem here: it gives C(n, k) mod {p}, which is 0 as soon as one carry "
            "happens, not how many factors of {p} there are",
        ),
        signals=("kummer's theorem", "carries in base {p}", r"/largest power of \d+ (that )?divides/i"),
        validation=("python brute_force.py --binomial",),
        slots={
            "p": ("2", "3", "5", "7"),
            "nk_pair": (
                {"n": "1000", "k": "500", "nk": "500"},
                {"n": "100", "k": "50", "nk": "50"},
                {"n": "2024", "k": "1012", "nk": "1012"},
                {"n": "2025", "k": "1000", "nk": "1025"},
                {"n": "200", "k": "73", "nk": "127"},
                {"n": "128", "k": "64", "nk": "64"},
                {"n": "999", "k": "333", "nk": "666"},
                {"n": "300", "k": "150", "nk": "150"},
                {"n": "1024", "k": "511", "nk": "513"},
                {"n": "500", "k": "125", "nk": "375"},
                {"n": "81", "k": "27", "nk": "54"},
                {"n": "625", "k": "300", "nk": "325"},
            ),
        },
    ),
    Problem(
        slug="lifting_the_exponent_power_difference",
        category="explore",
        summary="Find the exact power of {p} dividing {a}^{n} - {b}^{n} with the lifting-the-exponent lemma: "
        "v_{p}(a^n - b^n) = v_{p}(a - b) + v_{p}(n) for an odd prime dividing a - b",
        task="Find the largest integer k such that {p}^k divides {a}^{n} - {b}^{n}.",
        preconditions=("The prime divides a - b and neither a nor b",),
        steps=(
            "Check the hypotheses for the odd prime {p}: it divides {a} - {b} = {diff} and divides neither "
            "{a} nor {b}.",
            "Apply LTE: v_{p}({a}^{n} - {b}^{n}) = v_{p}({diff}) + v_{p}({n}), reading v_{p}({n}) off the "
            "factorization {n} = {nfact}.",
            "Verify exactly with Python integers: divide pow({a}, {n}) - pow({b}, {n}) by {p} while the "
            "remainder is zero and count the steps.",
        ),
        avoid=(
            "Do not use the odd-prime form for p = 2: there v_2(a^n - b^n) gains v_2(a + b) - 1 when n is "
            "even",
            "Do not apply LTE when {p} does not divide a - b: first pass to the order of a/b modulo {p}, "
            "then lift",
        ),
        signals=("lifting the exponent|lte lemma", "v_{p}", r"/\d+\^\d+\s*-\s*\d+\^\d+/"),
        validation=("python brute_force.py --valuation {p}",),
        slots={
            "base": (
                {"p": "3", "a": "5", "b": "2", "diff": "3"},
                {"p": "3", "a": "7", "b": "4", "diff": "3"},
                {"p": "3", "a": "11", "b": "2", "diff": "9"},
                {"p": "3", "a": "13", "b": "4", "diff": "9"},
                {"p": "5", "a": "7", "b": "2", "diff": "5"},
                {"p": "5", "a": "8", "b": "3", "diff": "5"},
                {"p": "5", "a": "13", "b": "3", "diff": "10"},
                {"p": "5", "a": "27", "b": "2", "diff": "25"},
                {"p": "7", "a": "9", "b": "2", "diff": "7"},
                {"p": "7", "a": "10", "b": "3", "diff": "7"},
                {"p": "11", "a": "13", "b": "2", "diff": "11"},
                {"p": "13", "a": "15", "b": "2", "diff": "13"},
            ),
            "n": (
                {"n": "2025", "nfact": "3^4 * 5^2"},
                {"n": "1000", "nfact": "2^3 * 5^3"},
                {"n": "1701", "nfact": "3^5 * 7"},
                {"n": "6125", "nfact": "5^3 * 7^2"},
                {"n": "686", "nfact": "2 * 7^3"},
                {"n": "1331", "nfact": "11^3"},
            ),
        },
    ),
    Problem(
        slug="gcd_of_power_differences",
        category="repair",
        summary="Compute gcd({a}^{m} - 1, {a}^{n} - 1) as {a}^gcd({m}, {n}) - 1 by running the Euclidean "
        "algorithm on the exponents instead of the huge numbers",
        task="Find gcd({a}^{m} - 1, {a}^{n} - 1).",
        preconditions=("Both numbers have the form a^k - 1 with the same base a",),
        steps=(
            "Use a^m - 1 = a^(m - n) (a^n - 1) + (a^(m - n) - 1): one Euclidean step on the numbers is the "
            "step m -> m - n on the exponents.",
            "Run Euclid on the exponents: gcd({m}, {n}) = {g}, so the gcd is {a}^{g} - 1.",
            "Leave the answer as {a}^{g} - 1 unless a decimal value is asked, and then expand it exactly.",
            "Verify with math.gcd on the exact integers (Python handles them) or on smaller exponents with "
            "the same gcd.",
        ),
        avoid=(
            "Do not take the gcd of the bases or of the numbers' last digits: the shared base means the "
            "exponents decide everything",
            "Do not carry the rule over to a^m + 1: gcd(a^m + 1, a^n + 1) depends on the powers of 2 in m "
            "and n",
        ),
        signals=("euclidean algorithm", "a^gcd(m,n) - 1", r"/gcd\(\s*\d+\^\d+\s*-\s*1/i"),
        validation=("python brute_force.py --gcd",),
        slots={
            "a": ("2", "3", "5", "7", "10"),
            "exps": (
                {"m": "100", "n": "75", "g": "25"},
                {"m": "2024", "n": "1001", "g": "11"},
                {"m": "36", "n": "48", "g": "12"},
                {"m": "91", "n": "65", "g": "13"},
                {"m": "60", "n": "42", "g": "6"},
                {"m": "17", "n": "51", "g": "17"},
                {"m": "30", "n": "45", "g": "15"},
                {"m": "2025", "n": "1350", "g": "675"},
                {"m": "99", "n": "55", "g": "11"},
                {"m": "64", "n": "40", "g": "8"},
            ),
        },
    ),
    Problem(
        slug="digital_root_mod_nine",
        category="repair",
        summary="Find the digital root of {a}^{b} (its repeated digit sum) by working modulo 9, with 9 "
        "standing in for residue 0, instead of expanding the power",
        task="Sum the digits of {a}^{b}, then sum the digits of the result, and repeat until a single digit "
        "remains. Which digit is it?",
        preconditions=("The number is a positive integer given as a power",),
        steps=(
            "A number and its digit sum agree modulo 9, so the digital root is {a}^{b} mod 9 (with 9 for 0).",
            "Reduce the base: {a} is congruent to {amod} modulo 9. {cycle}",
            "Map the final residue: 0 becomes 9 (the number is positive and divisible by 9), any other r "
            "stays r.",
            "Check with pow({a}, {b}, 9) and with an explicit iterated digit sum of the exact integer.",
        ),
        avoid=(
            "Do not answer 0: the digital root of a positive multiple of 9 is 9",
            "Do not reduce the exponent modulo 9: exponents reduce modulo the cycle length of the base (a "
            "divisor of 6 when the base is coprime to 9)",
        ),
        signals=("digital root", "casting out nines", r"/mod(ulo)?\s*9/i"),
        validation=("python brute_force.py --digits",),
        slots={
            "a": (
                {"a": "2", "amod": "2", "cycle": "Powers of 2 cycle 2, 4, 8, 7, 5, 1 with period 6."},
                {"a": "7", "amod": "7", "cycle": "Powers of 7 cycle 7, 4, 1 with period 3."},
                {"a": "8", "amod": "8", "cycle": "Powers of 8 alternate 8, 1 with period 2."},
                {"a": "11", "amod": "2", "cycle": "Powers of 2 cycle 2, 4, 8, 7, 5, 1 with period 6."},
                {"a": "13", "amod": "4", "cycle": "Powers of 4 cycle 4, 7, 1 with period 3."},
                {"a": "16", "amod": "7", "cycle": "Powers of 7 cycle 7, 4, 1 with period 3."},
                {"a": "2023", "amod": "7", "cycle": "Powers of 7 cycle 7, 4, 1 with period 3."},
                {"a": "4444", "amod": "7", "cycle": "Powers of 7 cycle 7, 4, 1 with period 3."},
                {"a": "5", "amod": "5", "cycle": "Powers of 5 cycle 5, 7, 8, 4, 2, 1 with period 6."},
                {
                    "a": "12",
                    "amod": "3",
                    "cycle": "The base is divisible by 3, so every power from the square on is divisible by "
                    "9.",
                },
            ),
            "b": ("100", "2024", "999", "4444", "50"),
        },
    ),
    Problem(
        slug="sum_of_two_squares_representations",
        category="explore",
        summary="Count the representations of {n} = {fact} as a sum of two squares from its factorization "
        "with Jacobi's formula r_2(n) = 4 (d_1(n) - d_3(n)), then convert to {convention}",
        task="For n = {n}: {ask}?",
        preconditions=("The factorization of n is known",),
        steps=(
            "Factor {n} = {fact}; if a prime congruent to 3 mod 4 appears to an odd power there are no "
            "representations at all.",
            "Otherwise r_2(n) = 4 times the product of (e + 1) over the primes p = 1 mod 4 with exponent e "
            "(the power of 2 and the even powers of primes 3 mod 4 do not change it); this equals 4 (d_1(n) "
            "- d_3(n)).",
            "Convert to the asked convention: {convert}.",
            "Check by brute force over x from 0 to sqrt({n}), testing whether {n} - x^2 is a perfect square.",
        ),
        avoid=(
            "Do not forget the axis solutions (x = 0 or y = 0) when n is a perfect square, nor the diagonal "
            "x = y when n is twice a square",
            "Do not count divisors of n instead of divisors split by their residue mod 4",
        ),
        signals=("sum of two squares", "r_2(n)|jacobi two-square theorem", "primes 1 mod 4"),
        validation=("python brute_force.py --max-n {n}",),
        slots={
            "n": _TWO_SQUARES_N,
            "ask": (
                {
                    "ask": "how many lattice points lie on the circle x^2 + y^2 = n",
                    "convention": "lattice points on a circle",
                    "convert": "r_2(n) already counts every signed, ordered pair, which is one lattice point "
                    "each",
                },
                {
                    "ask": "how many ordered pairs of integers (x, y) satisfy x^2 + y^2 = n",
                    "convention": "ordered integer pairs",
                    "convert": "r_2(n) is exactly this count",
                },
                {
                    "ask": "how many ordered pairs of positive integers (x, y) satisfy x^2 + y^2 = n",
                    "convention": "ordered positive pairs",
                    "convert": "remove the 4 axis solutions if n is a perfect square, then divide by 4 for "
                    "the sign choices",
                },
                {
                    "ask": "in how many ways can n be written as a^2 + b^2 with integers 0 <= a <= b",
                    "convention": "unordered nonnegative pairs",
                    "convert": "start from the positive ordered count, halve it after setting aside a = b, "
                    "then add back a = b and the representation with a = 0 if they exist",
                },
            ),
        },
    ),
    Problem(
        slug="mobius_coprime_pair_count",
        category="optimize",
        summary="Count coprime pairs up to N = {nn} exactly with Mobius inversion, sum of mu(d) "
        "floor(N/d)^2, for {what}, instead of a double gcd loop",
        task="Solve a number theory counting problem for N = {nn}: {ask}.",
        preconditions=("N is too large for an O(N^2) gcd loop",),
        steps=(
            "Write [gcd(a, b) = 1] as the sum over d dividing gcd(a, b) of mu(d) and swap the sums: the "
            "count of coprime pairs in [1, N]^2 is the sum over d <= N of mu(d) floor(N/d)^2.",
            "Sieve mu(d) up to N = {nn} with a linear sieve, then {tweak}.",
            "For large N group the d with equal floor(N/d) (about 2 sqrt(N) blocks) and use prefix sums of "
            "mu.",
            "Check against a direct gcd double loop for N up to a few hundred.",
        ),
        avoid=(
            "Do not answer 6/pi^2 * N^2: that is the asymptotic density, not the exact count",
            "Do not lose the pair (1, 1) when converting between ordered pairs, unordered pairs and pairs "
            "with a < b",
        ),
        signals=("mobius function|mobius inversion", "mu(d) floor(n/d)", r"/gcd\(a,\s*b\)\s*=\s*1/i"),
        validation=("python brute_force.py --max-n 300",),
        slots={
            "nn": ("10", "100", "1000", "10000", "100000", "1000000", "2024", "500", "360", "50"),
            "ask": (
                {
                    "ask": "count the ordered pairs (a, b) with 1 <= a, b <= N and gcd(a, b) = 1",
                    "what": "ordered coprime pairs",
                    "tweak": "the sum itself is the answer",
                },
                {
                    "ask": "count the lattice points (x, y) with 1 <= x, y <= N visible from the origin, "
                    "i.e. with no other lattice point on the segment to it",
                    "what": "visible lattice points",
                    "tweak": "visibility means gcd(x, y) = 1, so the same sum answers it",
                },
                {
                    "ask": "find the exact probability that two integers chosen independently and uniformly "
                    "from 1 to N are coprime",
                    "what": "a coprimality probability",
                    "tweak": "divide the count by N^2 and reduce the fraction",
                },
                {
                    "ask": "count the fractions a/b with 1 <= a < b <= N in lowest terms",
                    "what": "reduced proper fractions",
                    "tweak": "take (count - 1) / 2, since (1, 1) is the only coprime pair with a = b",
                },
                {
                    "ask": "compute the sum of gcd(a, b) over all pairs 1 <= a, b <= N",
                    "what": "a gcd sum",
                    "tweak": "use gcd(a, b) = sum of phi(d) over d dividing gcd(a, b), giving the sum over d "
                    "of phi(d) floor(N/d)^2 with a totient sieve",
                },
            ),
        },
    ),
    Problem(
        slug="continued_fraction_best_approximation",
        category="explore",
        summary="Find the best rational approximation to {c} with denominator at most {dd} from its "
        "continued fraction {cf}, checking semiconvergents as well as convergents",
        task="Find the fraction p/q with 1 <= q <= {dd} that is closest to {c}.",
        preconditions=("The constant can be evaluated to high precision",),
        steps=(
            "Expand {c} = {cf} with high-precision arithmetic (mpmath at 50 digits), not floats, since later "
            "partial quotients need many correct digits.",
            "Build convergents with h_k = a_k h_(k-1) + h_(k-2) and q_k = a_k q_(k-1) + q_(k-2) until the "
            "denominator would pass {dd}.",
            "Test the semiconvergents (h_(k-2) + t h_(k-1)) / (q_(k-2) + t q_(k-1)) for t from about a_k / 2 "
            "upward with denominator at most {dd}; they can beat the last convergent.",
            "Compare the candidates' errors with mpmath and confirm by brute force over every q <= {dd} with "
            "p = round(q * c).",
        ),
        avoid=(
            "Do not stop at the last convergent below {dd}: a semiconvergent with a larger denominator can "
            "be closer",
            "Do not compute partial quotients in double precision beyond about a dozen terms: rounding "
            "corrupts them",
        ),
        signals=("continued fraction", "best rational approximation", "semiconvergents"),
        validation=("python brute_force.py --max-n {dd}",),
        slots={
            "c": (
                {"c": "pi", "cf": "[3; 7, 15, 1, 292, 1, 1, 1, 2, ...]"},
                {"c": "e", "cf": "[2; 1, 2, 1, 1, 4, 1, 1, 6, ...]"},
                {"c": "sqrt(2)", "cf": "[1; 2, 2, 2, ...]"},
                {"c": "sqrt(3)", "cf": "[1; 1, 2, 1, 2, ...]"},
                {"c": "sqrt(7)", "cf": "[2; 1, 1, 1, 4, 1, 1, 1, 4, ...]"},
                {"c": "ln 2", "cf": "[0; 1, 2, 3, 1, 6, 3, 1, 1, 2, ...]"},
                {"c": "the cube root of 2", "cf": "[1; 3, 1, 5, 1, 1, 4, 1, 1, 8, ...]"},
                {"c": "the golden ratio", "cf": "[1; 1, 1, 1, ...]"},
                {"c": "sqrt(10)", "cf": "[3; 6, 6, 6, ...]"},
            ),
            "dd": ("10", "50", "100", "1000", "10000"),
        },
    ),
]

# --- combinatorics -----------------------------------------------------------------------------------------

_GAP_WORDS = (
    {
        "word": "MISSISSIPPI",
        "letter": "S",
        "rep": "4",
        "rest": "I x4, M, P x2",
        "restn": "7",
        "gaps": "8",
        "total": "34650",
    },
    {
        "word": "MISSISSIPPI",
        "letter": "I",
        "rep": "4",
        "rest": "M, P x2, S x4",
        "restn": "7",
        "gaps": "8",
        "total": "34650",
    },
    {
        "word": "BANANA",
        "letter": "A",
        "rep": "3",
        "rest": "B, N x2",
        "restn": "3",
        "gaps": "4",
        "total": "60",
    },
    {
        "word": "TENNESSEE",
        "letter": "E",
        "rep": "4",
        "rest": "N x2, S x2, T",
        "restn": "5",
        "gaps": "6",
        "total": "3780",
    },
    {
        "word": "STATISTICS",
        "letter": "S",
        "rep": "3",
        "rest": "A, C, I x2, T x3",
        "restn": "7",
        "gaps": "8",
        "total": "50400",
    },
    {
        "word": "STATISTICS",
        "letter": "T",
        "rep": "3",
        "rest": "A, C, I x2, S x3",
        "restn": "7",
        "gaps": "8",
        "total": "50400",
    },
    {
        "word": "ABRACADABRA",
        "letter": "A",
        "rep": "5",
        "rest": "B x2, C, D, R x2",
        "restn": "6",
        "gaps": "7",
        "total": "83160",
    },
    {
        "word": "REFERENCE",
        "letter": "E",
        "rep": "4",
        "rest": "C, F, N, R x2",
        "restn": "5",
        "gaps": "6",
        "total": "7560",
    },
    {
        "word": "BOOKKEEPER",
        "letter": "E",
        "rep": "3",
        "rest": "B, K x2, O x2, P, R",
        "restn": "7",
        "gaps": "8",
        "total": "151200",
    },
    {
        "word": "PEPPER",
        "letter": "P",
        "rep": "3",
        "rest": "E x2, R",
        "restn": "3",
        "gaps": "4",
        "total": "60",
    },
    {
        "word": "COMMITTEE",
        "letter": "E",
        "rep": "2",
        "rest": "C, I, M x2, O, T x2",
        "restn": "7",
        "gaps": "8",
        "total": "45360",
    },
)

_GRID_SIZES = tuple(
    {"m": str(m), "n": str(n), "m1": str(m + 1), "n1": str(n + 1)}
    for m, n in (
        (8, 8),
        (3, 4),
        (4, 5),
        (5, 5),
        (6, 4),
        (10, 10),
        (2, 7),
        (3, 3),
        (6, 9),
        (7, 7),
        (4, 4),
        (5, 8),
        (12, 12),
        (9, 6),
    )
)

COMBINATORICS = [
    Problem(
        slug="split_into_unlabelled_groups",
        category="repair",
        summary="Count the ways to split {n} {people} into {k} {groups}, {s} in each, with the multinomial "
        "coefficient, dividing by {k}! only when the groups are interchangeable",
        task="Solve a counting problem: in how many ways can {n} {people} be divided into {k} {groups}, with "
        "{s} in each?",
        preconditions=("All groups have the same size",),
        steps=(
            "Count ordered splits first: fill group 1, then group 2, and so on, giving the multinomial "
            "{n}! / ({s}!)^{k}.",
            "{labelled}",
            "Confirm the convention on a small analogue: 6 people into 3 pairs gives 90 labelled splits and "
            "90 / 3! = 15 unlabelled ones, which a direct listing confirms.",
        ),
        avoid=(
            "Do not divide by {k}! when the groups carry names, numbers or different tasks",
            "Do not divide by the factorials of the group sizes twice: the multinomial already ignores the "
            "order inside each group",
        ),
        signals=(
            "multinomial coefficient",
            "indistinguishable groups|unlabelled groups",
            r"/divided? into \d+ [a-z ]*(teams|groups|committees|crews)/i",
        ),
        validation=("python brute_force.py --max-n 8",),
        slots={
            "size": (
                {"n": "12", "k": "4", "s": "3"},
                {"n": "12", "k": "3", "s": "4"},
                {"n": "12", "k": "6", "s": "2"},
                {"n": "10", "k": "5", "s": "2"},
                {"n": "9", "k": "3", "s": "3"},
                {"n": "8", "k": "4", "s": "2"},
                {"n": "8", "k": "2", "s": "4"},
                {"n": "15", "k": "5", "s": "3"},
                {"n": "16", "k": "4", "s": "4"},
                {"n": "20", "k": "10", "s": "2"},
                {"n": "6", "k": "3", "s": "2"},
                {"n": "6", "k": "2", "s": "3"},
            ),
            "context": (
                {
                    "people": "students",
                    "groups": "unnamed study groups",
                    "labelled": "The study groups have no names or roles, so permuting whole groups gives "
                    "the same split: divide by k!.",
                },
                {
                    "people": "players",
                    "groups": "teams wearing identical bibs",
                    "labelled": "Teams with identical bibs are interchangeable, so each split was counted k! "
                    "times: divide by k!.",
                },
                {
                    "people": "workers",
                    "groups": "crews sent to numbered sites",
                    "labelled": "The sites are numbered, so the crews are labelled and the multinomial is "
                    "already the answer, with no division by k!.",
                },
                {
                    "people": "delegates",
                    "groups": "committees each given a different project",
                    "labelled": "Different projects make the committees distinguishable, so keep the "
                    "multinomial as it is.",
                },
            ),
        },
    ),
    Problem(
        slug="gap_method_repeated_letters",
        category="repair",
        summary="Count arrangements of {word} with no two {letter}'s adjacent by the gap method: arrange the "
        "other letters, then choose {rep} of the {gaps} gaps for the identical {letter}'s",
        task="Solve a counting problem: {pre} {word} {post} no two {letter}'s adjacent{end}",
        preconditions=("The letters that must be separated are identical to each other",),
        steps=(
            "Set the {rep} {letter}'s aside and arrange the other {restn} letters ({rest}) as a multiset "
            "permutation: {restn}! divided by the factorials of their repeat counts.",
            "Those {restn} letters leave {gaps} gaps, both ends included; choose {rep} of them for the "
            "{letter}'s: C({gaps}, {rep}). The {letter}'s are identical, so no further ordering factor.",
            "Multiply the two counts. For a probability, divide by the number of all distinct arrangements "
            "of {word}, which is {total}.",
            "Check with a brute-force pass over set(itertools.permutations(...)) of the letters.",
        ),
        avoid=(
            "Do not subtract arrangements with a 'glued' pair of {letter}'s once: with three or more of them "
            "the overlaps need full inclusion-exclusion, which the gap method avoids",
            "Do not multiply by {rep}! for the placed {letter}'s: identical letters have no order",
        ),
        signals=("gap method", "no two adjacent", r"/(arrangements|anagrams) of (the letters of )?[a-z]+/i"),
        validation=("python brute_force.py --strings",),
        slots={
            "word": _GAP_WORDS,
            "ask": (
                {"pre": "how many distinct arrangements of the letters of", "post": "have", "end": "?"},
                {"pre": "how many distinct anagrams of", "post": "(using every letter) have", "end": "?"},
                {
                    "pre": "in how many distinct ways can the letter tiles of",
                    "post": "be laid in a row with",
                    "end": "?",
                },
                {
                    "pre": "one of the distinct arrangements of the letters of",
                    "post": "is chosen uniformly at random; find the probability that it has",
                    "end": ".",
                },
                {
                    "pre": "how many distinct strings can be printed using every letter of",
                    "post": "with",
                    "end": "?",
                },
            ),
        },
    ),
    Problem(
        slug="grid_rectangles_and_squares",
        category="repair",
        summary="Count the {shape} in a grid of {m} x {n} unit squares {approach}, with {m1} horizontal and "
        "{n1} vertical grid lines",
        task="Count all {shape} whose sides lie on the lines of a grid of {m} x {n} unit squares.",
        preconditions=("Only axis-parallel rectangles made of whole unit squares count",),
        steps=(
            "A grid of {m} x {n} squares has {m1} horizontal and {n1} vertical lines; a rectangle is fixed "
            "by its top and bottom line and its left and right line.",
            "Count: {method}.",
            "Evaluate with m = {m} and n = {n}, keeping the sum exact.",
            "Check with a brute-force loop over all pairs of corners for the same grid.",
        ),
        avoid=(
            "Do not use {m} and {n} as the numbers of lines: the grid has {m1} and {n1}",
            "Do not count only unit squares, or only the squares whose side divides the grid size",
        ),
        signals=("rectangles in a grid", "C(m + 1, 2) C(n + 1, 2)", r"/\d+\s*x\s*\d+ (grid|unit squares)/i"),
        validation=("python brute_force.py --grid",),
        slots={
            "size": _GRID_SIZES,
            "shape": (
                {
                    "shape": "rectangles (squares included)",
                    "approach": "by choosing two horizontal and two vertical bounding lines",
                    "method": "choose 2 of the m + 1 horizontal lines and 2 of the n + 1 vertical ones, "
                    "C(m + 1, 2) C(n + 1, 2)",
                },
                {
                    "shape": "squares",
                    "approach": "by summing the positions of each square size",
                    "method": "a k x k square fits in (m - k + 1)(n - k + 1) positions; sum over k = 1 to "
                    "min(m, n)",
                },
                {
                    "shape": "rectangles that are not squares",
                    "approach": "as all rectangles (pairs of bounding lines) minus the squares",
                    "method": "take all rectangles, C(m + 1, 2) C(n + 1, 2), and subtract the squares, the "
                    "sum over k of (m - k + 1)(n - k + 1)",
                },
            ),
        },
    ),
    Problem(
        slug="closed_walks_adjacency_matrix",
        category="optimize",
        summary="Count closed walks of length {k} on {graph} as an entry of A^{k}, the adjacency matrix "
        "power, instead of enumerating walks",
        task="Count the walks of length {k} that start and end at {start} of {graph}, moving along one edge "
        "per step.",
        preconditions=("Walks may revisit vertices and edges",),
        steps=(
            "Write the adjacency matrix A of {graph}; the number of walks of length {k} from i to j is the "
            "(i, j) entry of A^{k}.",
            "Compute A^{k} exactly with integer matrix powers (repeated squaring with Python ints or sympy).",
            "{spec}",
            "Cross-check by brute-force enumeration of walks for lengths up to 8.",
        ),
        avoid=(
            "Do not count paths (no repeated vertices) when the problem says walks: revisits are allowed",
            "Do not read the trace of A^k as the count from one vertex: divide by the number of vertices "
            "only when every vertex looks the same",
        ),
        signals=("adjacency matrix", "closed walks", r"/walks? of length \d+/i"),
        validation=("python brute_force.py --graph",),
        slots={
            "graph": (
                {
                    "graph": "the 6-cycle (a frog hopping between adjacent vertices of a regular hexagon)",
                    "start": "a fixed vertex",
                    "spec": "Shortcut: the eigenvalues are 2 cos(2 pi j / 6), j = 0..5, and the graph is "
                    "vertex-transitive, so the count is the average of their k-th powers.",
                },
                {
                    "graph": "the complete graph K5",
                    "start": "a fixed vertex",
                    "spec": "Shortcut: the eigenvalues are 4 (once) and -1 (four times), so the count is "
                    "(4^k + 4 (-1)^k) / 5.",
                },
                {
                    "graph": "the cube graph Q3 (the vertices and edges of a cube)",
                    "start": "a fixed vertex",
                    "spec": "Shortcut: the eigenvalues are 3, 1, -1, -3 with multiplicities 1, 3, 3, 1; the "
                    "count is their k-th powers' weighted average.",
                },
                {
                    "graph": "the path with 4 vertices",
                    "start": "an end vertex",
                    "spec": "The path is not vertex-transitive, so read the (1, 1) entry of A^k directly or "
                    "use the eigenvector decomposition.",
                },
                {
                    "graph": "the Petersen graph",
                    "start": "a fixed vertex",
                    "spec": "Shortcut: the eigenvalues are 3, 1, -2 with multiplicities 1, 5, 4, and the "
                    "graph is vertex-transitive.",
                },
                {
                    "graph": "the complete bipartite graph K3,3",
                    "start": "a fixed vertex",
                    "spec": "Shortcut: the eigenvalues are 3, -3 and 0 (four times); only even k give "
                    "nonzero counts.",
                },
                {
                    "graph": "the octahedron graph",
                    "start": "a fixed vertex",
                    "spec": "Shortcut: the eigenvalues are 4, 0, -2 with multiplicities 1, 3, 2, and the "
                    "graph is vertex-transitive.",
                },
                {
                    "graph": "a square with one diagonal drawn",
                    "start": "an endpoint of the diagonal",
                    "spec": "The two kinds of vertices (degree 3 and degree 2) differ, so use the matrix "
                    "entry itself, not a trace average.",
                },
            ),
            "k": ("4", "6", "8", "10", "12", "20"),
        },
    ),
    Problem(
        slug="permutation_long_cycle_probability",
        category="explore",
        summary="Find the chance that a random permutation of {n} has a cycle longer than {half}, as the "
        "harmonic difference H_{n} - H_{half}, for {setting}",
        task="{pre} {n} {mid} {half}{post}",
        preconditions=("The permutation is uniformly random",),
        steps=(
            "A permutation of {n} has at most one cycle longer than {half}; the permutations with a given "
            "cycle of length L > {half} number C({n}, L) (L - 1)! ({n} - L)! = {n}! / L.",
            "So P(some cycle is longer than {half}) = sum of 1/L for L = {half1} to {n} = H_{n} - H_{half}; "
            "the complement answers the 'no long cycle' questions.",
            "Evaluate the sum exactly with fractions.Fraction and then as a decimal; it tends to ln 2 for "
            "large n.",
            "Confirm with a Monte Carlo run over random permutations.",
        ),
        avoid=(
            "Do not treat the participants as independent, e.g. (1/2)^{n} for the prisoners: the cycle "
            "structure couples their outcomes",
            "Do not start the sum at L = {half}: a cycle of exactly {half} is not longer than {half}",
        ),
        signals=("cycle decomposition", "100 prisoners|prisoners and boxes", r"/longest cycle/i"),
        validation=("python monte_carlo.py --trials 200000",),
        slots={
            "size": tuple(
                {"n": str(n), "half": str(n // 2), "half1": str(n // 2 + 1)}
                for n in (10, 20, 30, 40, 50, 60, 100, 200, 1000)
            ),
            "frame": (
                {
                    "setting": "the prisoners' box puzzle",
                    "pre": "In the prisoners' box puzzle,",
                    "mid": "prisoners each open",
                    "post": " boxes, following the cycle strategy (start at your own number, then open the "
                    "box named by the slip found). Find the probability that every prisoner finds their "
                    "number.",
                },
                {
                    "setting": "a long-cycle probability",
                    "pre": "Find the probability that a uniformly random permutation of",
                    "mid": "elements has a cycle of length greater than",
                    "post": ".",
                },
                {
                    "setting": "the longest cycle of a random permutation",
                    "pre": "Find the probability that the longest cycle of a uniformly random permutation of",
                    "mid": "elements has length at most",
                    "post": ".",
                },
                {
                    "setting": "a Secret Santa draw",
                    "pre": "A Secret Santa draw among",
                    "mid": "people is a uniformly random permutation (self-draws allowed). Find the "
                    "probability that some gift chain is longer than",
                    "post": " people.",
                },
                {
                    "setting": "a shuffled deck traced as loops",
                    "pre": "A deck of",
                    "mid": "numbered cards is shuffled, and following position to card value repeatedly "
                    "traces loops. Find the probability that no loop is longer than",
                    "post": " steps.",
                },
            ),
        },
    ),
    Problem(
        slug="divisibility_antichain_odd_parts",
        category="explore",
        summary="Show that the largest subset of 1..{m} with no element dividing another has {h} elements, "
        "by chaining numbers with the same odd part and pigeonholing",
        task="Among the integers 1 to {m}, {ask}",
        preconditions=("m is even, so half of 1..m is a whole number",),
        steps=(
            "Write every number as 2^a * t with t odd; the numbers sharing an odd part t form a chain in "
            "which each divides the next, and there are exactly {h} odd parts up to {m}.",
            "Pigeonhole: any {h1} of the numbers put two in one chain, so one of them divides the other.",
            "The {h} numbers {h1}, ..., {m} divide none of each other (the least proper multiple 2x of each "
            "exceeds {m}), so {h} is attained.",
            "Brute-force small cases (m up to 20) with a bitmask search to confirm the pattern.",
        ),
        avoid=(
            "Do not claim the odd numbers are the only extremal set: {h1}..{m} works too, and 1 divides "
            "everything",
            "Do not build chains from other primes: only powers of 2 times a fixed odd part give {h} chains "
            "that cover all of 1..{m}",
        ),
        signals=("antichain", "pigeonhole on odd parts", r"/no (element|number) divides another/i"),
        validation=("python brute_force.py --max-n 20",),
        slots={
            "m": tuple(
                {"m": str(m), "h": str(m // 2), "h1": str(m // 2 + 1)}
                for m in (10, 12, 20, 30, 40, 50, 64, 100, 200, 500, 1000, 2024)
            ),
            "ask": (
                "what is the largest size of a subset in which no element divides another?",
                "what is the smallest k such that every k-element subset contains two numbers one of which "
                "divides the other?",
                "exhibit a largest subset in which no number is a multiple of another, and prove that no "
                "larger one exists.",
                "prove that choosing more than half of them always forces a pair where one divides the "
                "other, and show the bound is tight.",
            ),
        },
    ),
    Problem(
        slug="nonadjacent_selection_count",
        category="repair",
        summary="Count the ways to choose {k} of {n} {objects} with no two adjacent, using {formula} for the "
        "{layout} layout",
        task="In how many ways can {k} of {n} {objects} be chosen so that no two chosen ones are next to "
        "each other?",
        preconditions=("The chosen items are not assigned to different people",),
        steps=(
            "Decide the layout: {objects} form a {layout}, so the first and last items are {ends}.",
            "{method}",
            "Evaluate with n = {n} and k = {k} exactly.",
            "Check with a brute-force scan over all C({n}, {k}) subsets.",
        ),
        avoid=(
            "Do not use the row formula for a circle: there the first and last items are neighbours",
            "Do not multiply by {k}! unless the chosen positions go to distinct people",
        ),
        signals=("no two adjacent", "{formula}", r"/(non-?adjacent|not next to each other)/i"),
        validation=("python brute_force.py --max-n 16",),
        slots={
            "nk": (
                {"n": "10", "k": "3"},
                {"n": "12", "k": "4"},
                {"n": "15", "k": "5"},
                {"n": "20", "k": "4"},
                {"n": "8", "k": "3"},
                {"n": "30", "k": "6"},
                {"n": "9", "k": "4"},
                {"n": "14", "k": "5"},
                {"n": "11", "k": "3"},
                {"n": "16", "k": "6"},
            ),
            "setting": (
                {
                    "objects": "chairs in a row",
                    "layout": "row",
                    "ends": "not neighbours",
                    "formula": "C(n - k + 1, k)",
                    "method": "Squeeze out one forced empty item between consecutive choices: non-adjacent "
                    "choices of k from n in a row match free choices of k from n - k + 1, so the count is "
                    "C(n - k + 1, k).",
                },
                {
                    "objects": "parking spaces along a kerb",
                    "layout": "row",
                    "ends": "not neighbours",
                    "formula": "C(n - k + 1, k)",
                    "method": "Encode a choice as a binary string with k ones and no two ones together; "
                    "placing the ones into the n - k + 1 gaps around the zeros gives C(n - k + 1, k).",
                },
                {
                    "objects": "lamps on a straight line",
                    "layout": "row",
                    "ends": "not neighbours",
                    "formula": "C(n - k + 1, k)",
                    "method": "Shift the chosen positions p_1 < ... < p_k to p_i - (i - 1): they become any "
                    "k distinct positions among n - k + 1, so the count is C(n - k + 1, k).",
                },
                {
                    "objects": "seats around a round table",
                    "layout": "circle",
                    "ends": "neighbours",
                    "formula": "n/(n - k) C(n - k, k)",
                    "method": "Split on a fixed seat: if it is chosen, its two neighbours are out and the "
                    "rest is a row of n - 3 with k - 1 choices, C(n - k - 1, k - 1); if not, a row of n - 1 "
                    "with k choices, C(n - k, k). The sum equals n/(n - k) C(n - k, k).",
                },
                {
                    "objects": "houses on a circular street",
                    "layout": "circle",
                    "ends": "neighbours",
                    "formula": "n/(n - k) C(n - k, k)",
                    "method": "Cut the circle at house 1: count selections without house 1 as a row of n - "
                    "1, C(n - k, k), and with house 1 as a row of n - 3 for the rest, C(n - k - 1, k - 1); "
                    "add them.",
                },
            ),
        },
    ),
]

# --- probability -------------------------------------------------------------------------------------------

PROBABILITY = [
    Problem(
        slug="birthday_collision_probability",
        category="repair",
        summary="Compute {ask_short} for {k} draws from {nn} equally likely values, keeping the any-pair "
        "event (the birthday product) apart from a match with one given member",
        task="Among {setting}, find {ask}.",
        preconditions=("Values are independent and uniform over N possibilities",),
        steps=(
            "Identify N = {nn} equally likely values and k = {k} independent draws.",
            "{how}",
            "Evaluate the product exactly with fractions, or in log space (the sum of log1p(-i/N)) when N is "
            "large; 1 - exp(-k(k - 1)/(2N)) is only a sanity check.",
            "Confirm with a Monte Carlo simulation of the k draws.",
        ),
        avoid=(
            "Do not confuse 'some pair matches' with 'someone matches one given member': the latter is "
            "1 - ((N - 1)/N)^(k - 1)",
            "Do not evaluate N^k or N!/(N - k)! in floating point for large N: overflow and cancellation "
            "ruin it",
        ),
        signals=(
            "birthday problem|birthday paradox",
            "hash collision",
            r"/probability (that )?(at least )?two/i",
        ),
        validation=("python monte_carlo.py --trials 1000000",),
        slots={
            "group": (
                {"k": "23", "nn": "365", "setting": "23 people, each with a birthday uniform over 365 days"},
                {"k": "30", "nn": "365", "setting": "30 people, each with a birthday uniform over 365 days"},
                {"k": "50", "nn": "365", "setting": "50 people, each with a birthday uniform over 365 days"},
                {"k": "10", "nn": "365", "setting": "10 people, each with a birthday uniform over 365 days"},
                {"k": "6", "nn": "12", "setting": "6 people, each born in a month chosen uniformly from 12"},
                {
                    "k": "1000",
                    "nn": "4294967296",
                    "setting": "1000 files, each given a 32-bit hash uniform over 2^32 values",
                },
                {"k": "100", "nn": "10000", "setting": "100 users, each picking a 4-digit PIN uniformly"},
                {"k": "5", "nn": "6", "setting": "5 rolls of a fair six-sided die"},
                {
                    "k": "8",
                    "nn": "52",
                    "setting": "8 people, each drawing one card from their own shuffled deck",
                },
                {"k": "40", "nn": "365", "setting": "40 people, each with a birthday uniform over 365 days"},
                {
                    "k": "300",
                    "nn": "65536",
                    "setting": "300 devices, each picking a random 16-bit identifier",
                },
                {"k": "20", "nn": "100", "setting": "20 guests, each picking a locker uniformly from 100"},
            ),
            "ask": (
                {
                    "ask": "the probability that at least two of them share a value",
                    "ask_short": "the chance of a shared value",
                    "how": "Take the complement: all distinct has probability prod_{i=0}^{k-1} (N - i)/N, so "
                    "the answer is 1 minus that product.",
                },
                {
                    "ask": "the probability that all their values are different",
                    "ask_short": "the chance that all values differ",
                    "how": "Count injective assignments: the probability is prod_{i=0}^{k-1} (N - i)/N, the "
                    "falling factorial over N^k.",
                },
                {
                    "ask": "the probability that at least one other member shares the value of the first "
                    "member",
                    "ask_short": "the chance that someone matches one given member",
                    "how": "This is a different event from any shared pair: each of the other k - 1 misses "
                    "with probability (N - 1)/N, so the answer is 1 - ((N - 1)/N)^(k - 1).",
                },
                {
                    "ask": "the expected number of pairs that share a value",
                    "ask_short": "the expected number of matching pairs",
                    "how": "Use one indicator per pair: each of the C(k, 2) pairs matches with probability "
                    "1/N, so the expectation is C(k, 2)/N, with no independence needed.",
                },
            ),
        },
    ),
    Problem(
        slug="uniform_order_statistics_spacings",
        category="explore",
        summary="Find the expected {ask_short} of {n} uniform points on [0, {ll}] with exchangeable "
        "spacings: the points cut the interval into {n1} gaps of equal mean {ll}/{n1}",
        task="{setting}. Find {ask}.",
        preconditions=("The points are independent and uniform on the interval",),
        steps=(
            "The {n} sorted points split [0, {ll}] into {n1} spacings that are exchangeable, so each spacing "
            "has mean {ll}/{n1}.",
            "The j-th smallest point is the sum of the first j spacings, so E[X_(j)] = j * {ll}/{n1}; the "
            "maximum is j = {n}, and the range covers {n} - 1 spacings.",
            "Cross-check with the Beta(j, n - j + 1) law of the j-th order statistic on [0, 1], scaled by "
            "{ll}.",
            "Simulate 10^6 trials and compare the sample mean with the exact fraction.",
        ),
        avoid=(
            "Do not answer {ll}/2 for the minimum or {ll}/{n} for a gap: {n} points make {n1} spacings",
            "Do not treat the sorted values as independent uniforms: order statistics are dependent",
        ),
        signals=(
            "order statistics",
            "uniform spacings",
            r"/expected (minimum|maximum|smallest|largest|gap)/i",
        ),
        validation=("python monte_carlo.py --trials 1000000",),
        slots={
            "setting": (
                {
                    "n": "4",
                    "n1": "5",
                    "ll": "60",
                    "setting": "4 buses arrive at independent uniform times during a 60-minute window",
                },
                {
                    "n": "5",
                    "n1": "6",
                    "ll": "10",
                    "setting": "5 knots are tied at uniform positions on a 10 m rope",
                },
                {
                    "n": "3",
                    "n1": "4",
                    "ll": "2",
                    "setting": "3 raindrops land at uniform points of a 2 m bench",
                },
                {
                    "n": "6",
                    "n1": "7",
                    "ll": "30",
                    "setting": "6 cars pass a checkpoint at uniform times in 30 minutes",
                },
                {
                    "n": "10",
                    "n1": "11",
                    "ll": "1",
                    "setting": "10 numbers are drawn independently and uniformly from [0, 1]",
                },
                {
                    "n": "7",
                    "n1": "8",
                    "ll": "24",
                    "setting": "7 e-mails arrive at uniform times over 24 hours",
                },
                {
                    "n": "3",
                    "n1": "4",
                    "ll": "60",
                    "setting": "3 friends arrive independently at uniform times in a 60-minute window",
                },
                {
                    "n": "9",
                    "n1": "10",
                    "ll": "100",
                    "setting": "9 sealed bids are independent and uniform on [0, 100] dollars",
                },
                {
                    "n": "20",
                    "n1": "21",
                    "ll": "1000",
                    "setting": "20 sensors are placed at uniform points along a 1000 m pipe",
                },
                {
                    "n": "8",
                    "n1": "9",
                    "ll": "50",
                    "setting": "8 fish are spotted at uniform points along 50 m of river bank",
                },
            ),
            "ask": (
                {"ask": "the expected value of the second smallest", "ask_short": "second smallest point"},
                {"ask": "the expected value of the smallest", "ask_short": "minimum"},
                {"ask": "the expected value of the largest", "ask_short": "maximum"},
                {"ask": "the expected distance between the smallest and the largest", "ask_short": "range"},
                {
                    "ask": "the expected gap between two consecutive points in sorted order",
                    "ask_short": "gap between consecutive points",
                },
            ),
        },
    ),
    Problem(
        slug="variance_of_count_via_indicator_covariances",
        category="optimize",
        summary="Find {ask} of {quantity} by writing it as a sum of indicators and adding their pairwise "
        "covariances, not just their variances",
        task="Compute {ask} of {quantity}.",
        preconditions=("The quantity is a count of events that can each be indicated",),
        steps=(
            "Write X as a sum of indicators: {indicators}.",
            "E[X(X - 1)] is the sum over ordered pairs i != j of P(I_i = I_j = 1): {pairs}.",
            "Then E[X^2] = E[X(X - 1)] + E[X] and Var X = E[X^2] - (E X)^2; equivalently the sum of the "
            "indicator variances plus twice the sum of the covariances.",
            "Check against exact enumeration for a small case or a simulation.",
        ),
        avoid=(
            "Do not add the indicator variances alone: dependent indicators contribute covariance terms",
            "Do not reuse the independence you do not have: linearity gives the mean for free, never the "
            "variance",
        ),
        signals=("indicator variables", "covariance", "variance of a sum"),
        validation=("python monte_carlo.py --trials 500000",),
        slots={
            "quantity": (
                {
                    "quantity": "the number of fixed points of a uniformly random permutation of 10",
                    "indicators": "I_j = 1 when position j is fixed, P = 1/10",
                    "pairs": "two given positions are both fixed with probability 1/(10 * 9)",
                },
                {
                    "quantity": "the number of empty boxes when 10 balls are thrown independently into 5 "
                    "boxes",
                    "indicators": "I_j = 1 when box j is empty, P = (4/5)^10",
                    "pairs": "two given boxes are both empty with probability (3/5)^10",
                },
                {
                    "quantity": "the number of empty boxes when 20 balls are thrown independently into 10 "
                    "boxes",
                    "indicators": "I_j = 1 when box j is empty, P = (9/10)^20",
                    "pairs": "two given boxes are both empty with probability (8/10)^20",
                },
                {
                    "quantity": "the number of runs of heads in 20 fair coin flips",
                    "indicators": "I_j = 1 when a run of heads starts at flip j (flip j is H and flip j - 1 "
                    "is T or absent)",
                    "pairs": "runs cannot start at adjacent flips (probability 0), while starts two or more "
                    "flips apart depend on disjoint flips and are independent",
                },
                {
                    "quantity": "the number of pairs of people sharing a birthday among 30 people (365 days)",
                    "indicators": "one indicator per pair of people, P = 1/365",
                    "pairs": "two different pairs match together with probability 1/365^2 whether or not "
                    "they share a person, so the indicators are pairwise independent",
                },
                {
                    "quantity": "the number of distinct faces seen in 6 rolls of a fair die",
                    "indicators": "I_f = 1 when face f appears, P = 1 - (5/6)^6",
                    "pairs": "faces f and g both appear with probability 1 - 2 (5/6)^6 + (4/6)^6",
                },
                {
                    "quantity": "the number of isolated vertices of a random graph G(10, 1/2)",
                    "indicators": "I_v = 1 when vertex v has no edges, P = (1/2)^9",
                    "pairs": "two given vertices are both isolated with probability (1/2)^17, since they "
                    "share one potential edge",
                },
                {
                    "quantity": "the number of triangles in a random graph G(8, 1/2)",
                    "indicators": "one indicator per vertex triple, P = (1/2)^3",
                    "pairs": "two triangles sharing an edge are both present with probability (1/2)^5; "
                    "triangles sharing at most one vertex are independent",
                },
                {
                    "quantity": "the number of couples sitting side by side when 5 couples sit in a row of "
                    "10 at random",
                    "indicators": "I_c = 1 when couple c is adjacent, P = 2 * 9!/10! = 1/5",
                    "pairs": "two given couples are both adjacent with probability 4 * 8!/10! = 2/45",
                },
                {
                    "quantity": "the number of records (left-to-right maxima) of a random permutation of 12",
                    "indicators": "I_j = 1 when entry j exceeds all earlier entries, P = 1/j",
                    "pairs": "the record indicators are independent, so every covariance is 0",
                },
                {
                    "quantity": "the number of (overlapping) occurrences of HH in 15 fair coin flips",
                    "indicators": "I_j = 1 when flips j and j + 1 are both heads, j = 1..14, P = 1/4",
                    "pairs": "overlapping windows j, j + 1 need three heads (probability 1/8); disjoint "
                    "windows are independent",
                },
            ),
            "ask": (
                "the variance",
                "the standard deviation",
                "the second moment E[X^2]",
                "the factorial moment E[X(X - 1)]",
            ),
        },
    ),
    Problem(
        slug="first_special_card_symmetric_gaps",
        category="optimize",
        summary="Find {ask} {special} among {nn} shuffled items with {k} {specials} by the symmetric-gaps "
        "argument: the {specials} cut the other {nk} items into {k1} gaps of equal mean size",
        task="The items of {deck} are revealed one at a time in random order. Find {ask} {special}.",
        preconditions=("Drawing is without replacement and every order is equally likely",),
        steps=(
            "The {k} {specials} split the {nk} other items into {k1} gaps: before the first, between "
            "consecutive ones, and after the last.",
            "By symmetry every gap has the same expected size, {nk}/{k1}.",
            "Read off the answer as {formula} with N = {nn} and k = {k}, and reduce the fraction.",
            "Confirm by summing P(first at position j) exactly for the same deck, or by simulation.",
        ),
        avoid=(
            "Do not use N/k, the mean of a geometric wait with replacement: these draws are without "
            "replacement",
            "Do not grind through a hypergeometric sum when the gap symmetry gives the answer in one line",
        ),
        signals=("symmetry argument", "without replacement", r"/expected (position|number of draws)/i"),
        validation=("python monte_carlo.py --trials 500000",),
        slots={
            "deck": (
                {
                    "deck": "a standard 52-card deck",
                    "nn": "52",
                    "k": "4",
                    "nk": "48",
                    "k1": "5",
                    "special": "ace",
                    "specials": "aces",
                },
                {
                    "deck": "a standard 52-card deck",
                    "nn": "52",
                    "k": "13",
                    "nk": "39",
                    "k1": "14",
                    "special": "heart",
                    "specials": "hearts",
                },
                {
                    "deck": "a standard 52-card deck",
                    "nn": "52",
                    "k": "12",
                    "nk": "40",
                    "k1": "13",
                    "special": "face card",
                    "specials": "face cards",
                },
                {
                    "deck": "a standard 52-card deck",
                    "nn": "52",
                    "k": "26",
                    "nk": "26",
                    "k1": "27",
                    "special": "red card",
                    "specials": "red cards",
                },
                {
                    "deck": "a 32-card piquet deck",
                    "nn": "32",
                    "k": "4",
                    "nk": "28",
                    "k1": "5",
                    "special": "king",
                    "specials": "kings",
                },
                {
                    "deck": "a batch of 100 items containing 10 defective ones",
                    "nn": "100",
                    "k": "10",
                    "nk": "90",
                    "k1": "11",
                    "special": "defective item",
                    "specials": "defective items",
                },
                {
                    "deck": "a stack of 50 scratch cards containing 3 winners",
                    "nn": "50",
                    "k": "3",
                    "nk": "47",
                    "k1": "4",
                    "special": "winning card",
                    "specials": "winning cards",
                },
                {
                    "deck": "a 54-card deck with two jokers",
                    "nn": "54",
                    "k": "2",
                    "nk": "52",
                    "k1": "3",
                    "special": "joker",
                    "specials": "jokers",
                },
                {
                    "deck": "a 36-card deck",
                    "nn": "36",
                    "k": "4",
                    "nk": "32",
                    "k1": "5",
                    "special": "ace",
                    "specials": "aces",
                },
                {
                    "deck": "an urn of 20 balls of which 5 are red",
                    "nn": "20",
                    "k": "5",
                    "nk": "15",
                    "k1": "6",
                    "special": "red ball",
                    "specials": "red balls",
                },
            ),
            "ask": (
                {"ask": "the expected position of the first", "formula": "(N + 1)/(k + 1)"},
                {
                    "ask": "the expected number of other items revealed before the first",
                    "formula": "(N - k)/(k + 1)",
                },
                {"ask": "the expected position of the last", "formula": "k (N + 1)/(k + 1)"},
                {
                    "ask": "the expected number of items revealed strictly between the first and the second",
                    "formula": "(N - k)/(k + 1)",
                },
            ),
        },
    ),
    Problem(
        slug="distribution_free_tail_bounds",
        category="explore",
        summary="Bound P(X >= {a}) for {context} with mean {mu} and standard deviation {sigma} using {ineq}, "
        "a distribution-free bound, not a normal tail",
        task="The {context} have mean {mu} and standard deviation {sigma}; nothing else is known about the "
        "distribution. Bound the probability of a value of at least {a} using {ineq}.",
        preconditions=("Only the mean, the variance and nonnegativity are known",),
        steps=(
            "Check the hypotheses: Markov needs X >= 0; Chebyshev and Cantelli need a finite variance.",
            "The threshold {a} lies t = {t} above the mean, that is {z} standard deviations.",
            "Apply {formula}.",
            "State the result as an upper bound valid for every distribution with these moments, not as an "
            "estimate of the probability.",
        ),
        avoid=(
            "Do not plug in a normal tail probability: the distribution is unknown, so only the inequality "
            "is justified",
            "Do not halve the two-sided Chebyshev bound for a one-sided event without assuming symmetry; use "
            "Cantelli instead",
        ),
        signals=("chebyshev's inequality", "markov's inequality", "cantelli inequality"),
        validation=("python check_answer.py --exact",),
        slots={
            "data": (
                {
                    "context": "daily orders at a shop",
                    "mu": "200",
                    "sigma": "20",
                    "a": "260",
                    "t": "60",
                    "z": "3",
                },
                {"context": "exam scores", "mu": "70", "sigma": "10", "a": "90", "t": "20", "z": "2"},
                {
                    "context": "parcel weights in kg",
                    "mu": "5",
                    "sigma": "0.5",
                    "a": "6.5",
                    "t": "1.5",
                    "z": "3",
                },
                {
                    "context": "waiting times in minutes",
                    "mu": "12",
                    "sigma": "4",
                    "a": "30",
                    "t": "18",
                    "z": "4.5",
                },
                {
                    "context": "server response times in ms",
                    "mu": "80",
                    "sigma": "15",
                    "a": "140",
                    "t": "60",
                    "z": "4",
                },
                {
                    "context": "monthly rainfall totals in mm",
                    "mu": "50",
                    "sigma": "20",
                    "a": "110",
                    "t": "60",
                    "z": "3",
                },
                {
                    "context": "bulb lifetimes in hours",
                    "mu": "1000",
                    "sigma": "200",
                    "a": "1600",
                    "t": "600",
                    "z": "3",
                },
                {
                    "context": "calls per hour at a help desk",
                    "mu": "30",
                    "sigma": "6",
                    "a": "48",
                    "t": "18",
                    "z": "3",
                },
                {
                    "context": "daily step counts",
                    "mu": "8000",
                    "sigma": "2500",
                    "a": "15500",
                    "t": "7500",
                    "z": "3",
                },
                {
                    "context": "batch yields in units",
                    "mu": "500",
                    "sigma": "40",
                    "a": "620",
                    "t": "120",
                    "z": "3",
                },
            ),
            "ineq": (
                {
                    "ineq": "Markov's inequality (the values are nonnegative)",
                    "formula": "P(X >= a) <= mu / a, which uses only the mean",
                },
                {
                    "ineq": "Chebyshev's inequality",
                    "formula": "P(X >= a) <= P(|X - mu| >= t) <= sigma^2 / t^2",
                },
                {
                    "ineq": "the one-sided Cantelli inequality",
                    "formula": "P(X - mu >= t) <= sigma^2 / (sigma^2 + t^2), always sharper than one-sided "
                    "Chebyshev",
                },
                {
                    "ineq": "the best of Markov, Chebyshev and Cantelli",
                    "formula": "all three (mu / a, sigma^2 / t^2 and sigma^2 / (sigma^2 + t^2)) and keep the "
                    "smallest",
                },
            ),
        },
    ),
    Problem(
        slug="density_of_transformed_variable_cdf_method",
        category="repair",
        summary="Find the law of Y = {y}, where {x}, with the CDF method, handling {note}, and report "
        "{ask_short}",
        task="Let Y = {y}, where {x}. Find {ask}.",
        preconditions=("The distribution of X is fully specified",),
        steps=(
            "Write F_Y(y) = P({y} <= y) and turn it into an event about X: {event}.",
            "Evaluate it with the CDF of X and differentiate to get f_Y; the support of Y is {support}.",
            "Check that f_Y is nonnegative and integrates to 1 over the support.",
            "Compare with a histogram of 10^6 simulated values of {y}.",
        ),
        avoid=(
            "Do not use f_X(g^-1(y)) without the factor |d g^-1 / dy|, and never for a non-monotone g "
            "without summing the branches",
            "Do not leave out where the density is zero: a formula without its support is incomplete",
        ),
        signals=("cdf method", "change of variables|jacobian", r"/density of y\s*=/i"),
        validation=("python monte_carlo.py --trials 1000000",),
        slots={
            "case": (
                {
                    "y": "X^2",
                    "x": "X is uniform on (-1, 1)",
                    "note": "a two-to-one map",
                    "event": "P(-sqrt(y) <= X <= sqrt(y)) for 0 < y < 1, two branches because squaring is "
                    "not one-to-one",
                    "support": "(0, 1)",
                },
                {
                    "y": "-ln X",
                    "x": "X is uniform on (0, 1)",
                    "note": "a decreasing map",
                    "event": "P(X >= e^(-y)) for y > 0, the inequality flipping because -ln is decreasing",
                    "support": "(0, infinity)",
                },
                {
                    "y": "1/X",
                    "x": "X is uniform on (1, 2)",
                    "note": "a decreasing map",
                    "event": "P(X >= 1/y) for 1/2 < y < 1",
                    "support": "(1/2, 1)",
                },
                {
                    "y": "e^X",
                    "x": "X is standard normal",
                    "note": "an increasing map onto (0, infinity)",
                    "event": "P(X <= ln y) for y > 0",
                    "support": "(0, infinity)",
                },
                {
                    "y": "sqrt(X)",
                    "x": "X is exponential with rate 1",
                    "note": "an increasing map",
                    "event": "P(X <= y^2) for y > 0",
                    "support": "(0, infinity)",
                },
                {
                    "y": "X^2",
                    "x": "X is standard normal",
                    "note": "a two-to-one map",
                    "event": "P(-sqrt(y) <= X <= sqrt(y)) for y > 0, two symmetric branches",
                    "support": "(0, infinity)",
                },
                {
                    "y": "tan(pi (X - 1/2))",
                    "x": "X is uniform on (0, 1)",
                    "note": "an increasing map onto the line",
                    "event": "P(X <= 1/2 + arctan(y)/pi) for every real y",
                    "support": "all real y",
                },
                {
                    "y": "|X|",
                    "x": "X is standard normal",
                    "note": "folding the line in half",
                    "event": "P(-y <= X <= y) for y > 0",
                    "support": "(0, infinity)",
                },
                {
                    "y": "3X + 2",
                    "x": "X is exponential with rate 2",
                    "note": "an affine map",
                    "event": "P(X <= (y - 2)/3) for y > 2",
                    "support": "(2, infinity)",
                },
                {
                    "y": "X^3",
                    "x": "X is uniform on (-1, 1)",
                    "note": "an increasing map with a flat point at 0",
                    "event": "P(X <= y^(1/3)) for -1 < y < 1, with the real cube root for negative y",
                    "support": "(-1, 1)",
                },
            ),
            "ask": (
                {"ask": "the density f_Y and its support", "ask_short": "the density with its support"},
                {"ask": "the CDF F_Y(y) for every real y", "ask_short": "the CDF on the whole line"},
                {
                    "ask": "the density f_Y, and check that it integrates to 1",
                    "ask_short": "a normalised density",
                },
                {"ask": "the median of Y", "ask_short": "the median"},
            ),
        },
    ),
    Problem(
        slug="competing_exponential_clocks",
        category="explore",
        summary="Answer a race between independent exponential times ({setting}) with rates, memorylessness "
        "and min/max rules, for {ask_short}",
        task="Consider {setting}, all independent and exponentially distributed. Find {ask}.",
        preconditions=("The times are independent and exponential",),
        steps=(
            "Convert every mean or half-life to a rate: {rates}.",
            "Race facts: the minimum of independent exponentials is exponential with the summed rate, and "
            "clock i finishes first with probability lambda_i / (sum of the rates).",
            "For 'all finished' or 'finishes last', restart the remaining clocks after each finish "
            "(memorylessness) or use inclusion-exclusion: E[max] = sum 1/lambda_i - sum over pairs "
            "1/(lambda_i + lambda_j) + ...",
            "Simulate 10^6 races to confirm.",
        ),
        avoid=(
            "Do not use a mean or half-life as a rate: rate = 1/mean = ln 2 / half-life",
            "Do not add the means to get the time until all finish: the clocks run in parallel",
        ),
        signals=("memoryless property", "exponential race|competing exponentials", "minimum of exponentials"),
        validation=("python monte_carlo.py --trials 1000000",),
        slots={
            "setting": (
                {
                    "setting": "the burn-out times of two bulbs with means 1000 h and 1500 h",
                    "rates": "1/1000 and 1/1500 per hour",
                },
                {
                    "setting": "the failure times of three servers with means 10, 20 and 40 days",
                    "rates": "1/10, 1/20 and 1/40 per day",
                },
                {
                    "setting": "the service times at two bank tellers with means 4 and 6 minutes",
                    "rates": "1/4 and 1/6 per minute",
                },
                {
                    "setting": "the decay times of two atoms with half-lives 5 h and 10 h",
                    "rates": "ln 2 / 5 and ln 2 / 10 per hour",
                },
                {
                    "setting": "the failure times of three machines with rates 0.1, 0.2 and 0.3 per hour",
                    "rates": "already given: 0.1, 0.2 and 0.3 per hour",
                },
                {
                    "setting": "the battery lives of two phones with means 8 h and 12 h",
                    "rates": "1/8 and 1/12 per hour",
                },
                {
                    "setting": "the lifetimes of four identical components with mean 100 h",
                    "rates": "1/100 per hour each, so symmetry settles the ordering questions",
                },
                {
                    "setting": "the service times at two counters with rates 3 and 2 customers per hour",
                    "rates": "already given: 3 and 2 per hour (means 20 and 30 minutes)",
                },
                {
                    "setting": "the lifetimes of a sensor and its always-on backup with means 2 and 3 years",
                    "rates": "1/2 and 1/3 per year",
                },
                {
                    "setting": "the waits for buses on two routes with means 10 and 15 minutes",
                    "rates": "1/10 and 1/15 per minute",
                },
            ),
            "ask": (
                {
                    "ask": "the probability that the first-listed one finishes first",
                    "ask_short": "who finishes first",
                },
                {
                    "ask": "the expected time until the first one finishes",
                    "ask_short": "the first finishing time",
                },
                {
                    "ask": "the expected time until all of them have finished",
                    "ask_short": "the time until all finish",
                },
                {
                    "ask": "the probability that the first-listed one finishes last",
                    "ask_short": "who finishes last",
                },
            ),
        },
    ),
    Problem(
        slug="best_of_series_win_probability",
        category="repair",
        summary="Compute {ask_short} for a team winning each game with probability {p} in a best-of-{g} "
        "series (first to {w}), fixing the clinching game as a win",
        task="A team wins each game independently with probability {p} and plays a best-of-{g} series (first "
        "to {w} wins). Find {ask}.",
        preconditions=("Games are independent with a constant win probability",),
        steps=(
            "If the team clinches in game w + j (w = {w}), that game is a win and exactly j of the earlier "
            "w - 1 + j games are losses: C(w - 1 + j, j) p^w q^j with q = 1 - p, for j = 0..w - 1.",
            "Check with the play-all-games view: imagine all {g} games are played; the team wins the series "
            "exactly when it wins at least {w} of them, a binomial tail with the same value.",
            "{how}",
            "Compute exactly with fractions for p = {p}, then confirm by simulating series.",
        ),
        avoid=(
            "Do not answer p^{w} or a binomial over exactly {w} games: series end early, and the deciding "
            "game must be a win",
            "Do not mix the two views: either play all {g} games, or stop at the clinching win, not both",
        ),
        signals=("negative binomial", "best-of-{g}", r"/first to \d+ wins/i"),
        validation=("python monte_carlo.py --trials 500000",),
        slots={
            "p": ("0.55", "0.6", "0.7", "2/3", "0.45", "0.52", "0.8", "0.35"),
            "series": (
                {"g": "3", "w": "2"},
                {"g": "5", "w": "3"},
                {"g": "7", "w": "4"},
                {"g": "9", "w": "5"},
            ),
            "ask": (
                {
                    "ask": "the probability that the team wins the series",
                    "ask_short": "the series win probability",
                    "how": "Sum the clinching terms over j; the result is the series win probability.",
                },
                {
                    "ask": "the expected number of games played",
                    "ask_short": "the expected series length",
                    "how": "For the length, P(series ends at game n) counts either side clinching at n; sum "
                    "n times that over n = w..2w - 1.",
                },
            ),
        },
    ),
    Problem(
        slug="series_parallel_system_reliability",
        category="repair",
        summary="Compute the reliability of a system built as {structure}, each component working "
        "independently with probability {p}, combining series blocks by products and parallel blocks by "
        "complements",
        task="A system is built as {structure}, and each component works independently with probability {p}. "
        "Find the probability that the system works.",
        preconditions=("Components fail independently",),
        steps=(
            "Draw the reliability block diagram and mark which blocks are in series (all must work) and "
            "which in parallel (at least one must work).",
            "{how}",
            "Evaluate with p = {p} exactly (decimals or fractions), not rounded step by step.",
            "Confirm by brute force: sum the probabilities of all 2^n component states in which the system "
            "works.",
        ),
        avoid=(
            "Do not add probabilities for a parallel block: use 1 - prod(1 - p_i)",
            "Do not force a bridge network into series-parallel form: condition on the bridge component "
            "first",
        ),
        signals=(
            "reliability block diagram",
            "series and parallel",
            r"/probability (that )?the system works/i",
        ),
        validation=("python brute_force.py --max-n 5",),
        slots={
            "structure": (
                {"structure": "two components in series", "how": "Series: R = p^2."},
                {"structure": "three components in parallel", "how": "Parallel: R = 1 - (1 - p)^3."},
                {
                    "structure": "two parallel pairs connected in series",
                    "how": "Each pair works with 1 - (1 - p)^2; two pairs in series multiply: R = (1 - (1 - "
                    "p)^2)^2.",
                },
                {
                    "structure": "two series pairs connected in parallel",
                    "how": "Each series pair works with p^2; in parallel: R = 1 - (1 - p^2)^2.",
                },
                {
                    "structure": "a 2-out-of-3 voting system",
                    "how": "At least two of three work: R = 3 p^2 (1 - p) + p^3.",
                },
                {
                    "structure": "a five-component bridge network (two paths of two components, with a fifth "
                    "component bridging their midpoints)",
                    "how": "Condition on the bridge: if it works the network is two parallel pairs in "
                    "series, (1 - (1 - p)^2)^2; if it fails it is two series pairs in parallel, 1 - (1 - "
                    "p^2)^2; weight by p and 1 - p.",
                },
                {
                    "structure": "a chain of four components in series, duplicated as a whole in parallel",
                    "how": "One chain works with p^4; two independent chains in parallel: R = 1 - (1 - "
                    "p^4)^2.",
                },
                {
                    "structure": "one component in series with a parallel block of two others",
                    "how": "R = p (1 - (1 - p)^2).",
                },
                {
                    "structure": "a 3-out-of-5 system",
                    "how": "At least three of five work: R = sum over j = 3..5 of C(5, j) p^j (1 - p)^(5 - "
                    "j).",
                },
            ),
            "p": ("0.9", "0.95", "0.8", "0.99", "0.7"),
        },
    ),
    Problem(
        slug="sum_of_uniforms_irwin_hall",
        category="explore",
        summary="Find the probability that {n} independent uniform(0, 1) variables sum to at most {t} "
        "({setting}) with the Irwin-Hall CDF, the volume of a unit cube cut by a hyperplane",
        task="{pre} {n} {mid} {t}{post}",
        preconditions=("The summands are independent and uniform on [0, 1] after scaling",),
        steps=(
            "The probability is the volume of {x in [0, 1]^n : x_1 + ... + x_n <= t}; for t <= 1 it is the "
            "simplex volume t^n / n!.",
            "For general t use inclusion-exclusion over the corners cut off: F(t) = (1/n!) sum over "
            "k = 0..floor(t) of (-1)^k C(n, k) (t - k)^n, here with n = {n} and t = {t}.",
            "Use symmetry as a check: F(n - t) = 1 - F(t), so F(n/2) = 1/2.",
            "Evaluate exactly with fractions and confirm with a Monte Carlo run.",
        ),
        avoid=(
            "Do not use the normal approximation for a handful of uniforms when the exact piecewise "
            "polynomial is available",
            "Do not apply t^n / n! beyond t = 1: past that, the cube's corners cut the simplex",
        ),
        signals=("irwin-hall distribution", "sum of uniform random variables", "simplex volume"),
        validation=("python monte_carlo.py --trials 1000000",),
        slots={
            "nt": (
                {"n": "2", "t": "0.5"},
                {"n": "2", "t": "1.5"},
                {"n": "3", "t": "1"},
                {"n": "3", "t": "1.5"},
                {"n": "3", "t": "2"},
                {"n": "3", "t": "0.5"},
                {"n": "4", "t": "1"},
                {"n": "4", "t": "2.5"},
                {"n": "5", "t": "1"},
                {"n": "5", "t": "2"},
                {"n": "6", "t": "3"},
                {"n": "10", "t": "1"},
            ),
            "frame": (
                {
                    "setting": "plain uniforms",
                    "pre": "Find the probability that the sum of",
                    "mid": "independent uniform(0, 1) random numbers is at most",
                    "post": ".",
                },
                {
                    "setting": "random delays",
                    "pre": "A trip has",
                    "mid": "independent delays, each uniform between 0 and 1 hour. Find the probability that "
                    "the total delay is at most",
                    "post": " hours.",
                },
                {
                    "setting": "rods laid end to end",
                    "pre": "Take",
                    "mid": "rods with independent lengths uniform on (0, 1) m and lay them end to end. Find "
                    "the probability that the total length is at most",
                    "post": " m.",
                },
                {
                    "setting": "the Irwin-Hall CDF",
                    "pre": "Evaluate the CDF of the Irwin-Hall distribution with",
                    "mid": "summands at",
                    "post": ".",
                },
            ),
        },
    ),
    Problem(
        slug="beta_binomial_posterior_update",
        category="explore",
        summary="Update a {prior} prior on a coin's heads probability after {h} heads in {n} flips by "
        "conjugacy to Beta(a + {h}, b + {t}), and report the posterior mean and predictive",
        task="A coin with unknown heads probability theta has a {prior} prior. After {h} heads in {n} flips, "
        "find the posterior mean of theta and the probability that the next flip is heads.",
        preconditions=("Flips are independent given theta",),
        steps=(
            "The {prior} prior is Beta(a, b) with {ab}; the likelihood theta^h (1 - theta)^(n - h) keeps the "
            "Beta form.",
            "Posterior: Beta(a + {h}, b + {t}), {t} being the number of tails.",
            "Posterior mean (a + {h}) / (a + b + {n}); for independent flips given theta this is also the "
            "predictive probability of heads on the next flip.",
            "Check by numerical integration of prior times likelihood on a grid of theta values.",
        ),
        avoid=(
            "Do not report the sample proportion {h}/{n} as the posterior mean: the prior adds pseudo-counts",
            "Do not confuse the posterior mode (a + h - 1)/(a + b + n - 2) with the posterior mean",
        ),
        signals=("beta prior", "conjugate prior", "posterior mean", "rule of succession"),
        validation=("python numeric_check.py --quad",),
        slots={
            "prior": (
                {"prior": "uniform Beta(1, 1)", "ab": "a = b = 1 (Laplace's rule of succession)"},
                {"prior": "Beta(2, 2)", "ab": "a = b = 2"},
                {"prior": "Jeffreys Beta(1/2, 1/2)", "ab": "a = b = 1/2"},
                {"prior": "Beta(10, 10)", "ab": "a = b = 10, a strong belief in fairness"},
            ),
            "data": (
                {"h": "7", "n": "10", "t": "3"},
                {"h": "0", "n": "5", "t": "5"},
                {"h": "3", "n": "3", "t": "0"},
                {"h": "12", "n": "20", "t": "8"},
                {"h": "45", "n": "100", "t": "55"},
                {"h": "1", "n": "10", "t": "9"},
                {"h": "9", "n": "12", "t": "3"},
                {"h": "50", "n": "50", "t": "0"},
                {"h": "18", "n": "30", "t": "12"},
                {"h": "2", "n": "8", "t": "6"},
            ),
        },
    ),
]

# --- algebra, inequalities and sequences --------------------------------------------------------------------

ALGEBRA = [
    Problem(
        slug="polynomial_remainder_by_root_evaluation",
        category="repair",
        summary="Find the remainder of {poly} divided by {div} by evaluating at the divisor's roots "
        "({roots}) instead of long division",
        task="Find the remainder when {poly} is divided by {div}.",
        preconditions=("The divisor's roots are known or the divisor is a small power",),
        steps=(
            "The remainder has lower degree than the divisor: write R(x) = {rform}.",
            "P(x) = D(x) Q(x) + R(x) with D(x) = {div}, so at every root r of D, P(r) = R(r): {method}.",
            "Solve the small linear system for the coefficients of R.",
            "Verify with sympy.rem on the exact polynomials.",
        ),
        avoid=(
            "Do not carry out long division on a dividend of huge degree: evaluate at the divisor's roots",
            "Do not report the value at one root as the remainder: a divisor of degree 2 or 3 leaves a "
            "polynomial remainder",
        ),
        signals=("remainder theorem", "polynomial remainder", r"/divided by x\^\d/i"),
        validation=("python sympy_verify.py",),
        slots={
            "poly": ("x^100", "x^2024", "x^99 + x + 1", "3x^50 - 2x^7 + 5", "x^2025 - 1", "(x + 1)^20"),
            "div": (
                {
                    "div": "x^2 - 3x + 2",
                    "roots": "1 and 2",
                    "rform": "ax + b",
                    "method": "P(1) = a + b and P(2) = 2a + b",
                },
                {
                    "div": "x^2 - 1",
                    "roots": "1 and -1",
                    "rform": "ax + b",
                    "method": "P(1) = a + b and P(-1) = -a + b",
                },
                {
                    "div": "x^2 + x - 6",
                    "roots": "2 and -3",
                    "rform": "ax + b",
                    "method": "P(2) = 2a + b and P(-3) = -3a + b",
                },
                {
                    "div": "x^2 - 4",
                    "roots": "2 and -2",
                    "rform": "ax + b",
                    "method": "P(2) = 2a + b and P(-2) = -2a + b",
                },
                {
                    "div": "(x - 1)^2",
                    "roots": "the double root 1",
                    "rform": "ax + b",
                    "method": "a double root also gives P'(1) = R'(1), so P(1) = a + b and P'(1) = a",
                },
                {
                    "div": "x^2 + 1",
                    "roots": "i and -i",
                    "rform": "ax + b",
                    "method": "P(i) = ai + b with real a and b, so match real and imaginary parts (powers of "
                    "i cycle with period 4)",
                },
                {
                    "div": "x^2 + x + 1",
                    "roots": "the primitive cube roots of unity",
                    "rform": "ax + b",
                    "method": "at w with w^3 = 1 and w^2 = -w - 1, reduce P(w) to the form aw + b and read "
                    "off a and b",
                },
                {
                    "div": "x^3 - x",
                    "roots": "0, 1 and -1",
                    "rform": "ax^2 + bx + c",
                    "method": "P(0) = c, P(1) = a + b + c and P(-1) = a - b + c",
                },
            ),
        },
    ),
    Problem(
        slug="lagrange_interpolation_auxiliary_polynomial",
        category="innovate",
        summary="Find P({n1}) for the degree-{n} polynomial with P(k) = {rule} at k = 0..{n} by building "
        "{aux}, whose roots are known, instead of solving for the coefficients",
        task="A polynomial P of degree n = {n} satisfies P(k) = {rule} for k = 0, 1, ..., n. Find P({n1}).",
        preconditions=("P is pinned down by its values at n + 1 points",),
        steps=(
            "Build {aux}; it vanishes at k = 0, 1, ..., {n} or has known differences there.",
            "{finish}",
            "Substitute x = {n1} and simplify exactly (Python integers or fractions; no floats).",
            "Check with sympy.interpolate on the {n1} given points and evaluate at {n1}.",
        ),
        avoid=(
            "Do not solve the Vandermonde system by hand for the coefficients: the auxiliary polynomial "
            "gives the value directly",
            "Do not assume P(k) = {rule} keeps holding at k = {n1}: a degree-{n} polynomial only matches the "
            "rule at the {n1} given points",
        ),
        signals=("lagrange interpolation", "auxiliary polynomial", "finite differences"),
        validation=("python sympy_verify.py",),
        slots={
            "n": tuple({"n": str(n), "n1": str(n + 1)} for n in (3, 4, 5, 6, 7, 8, 10, 2024)),
            "rule": (
                {
                    "rule": "k/(k + 1)",
                    "aux": "Q(x) = (x + 1) P(x) - x",
                    "finish": "Q has degree n + 1 and roots 0, 1, ..., n, so Q(x) = c x(x - 1)...(x - n); x "
                    "= -1 gives Q(-1) = 1, which fixes c, and then P(n + 1) = (Q(n + 1) + n + 1)/(n + 2).",
                },
                {
                    "rule": "1/(k + 1)",
                    "aux": "Q(x) = (x + 1) P(x) - 1",
                    "finish": "Q(x) = c x(x - 1)...(x - n) with Q(-1) = -1 fixing c; then P(n + 1) = "
                    "(Q(n + 1) + 1)/(n + 2).",
                },
                {
                    "rule": "2^k",
                    "aux": "the forward-difference table of P",
                    "finish": "The differences of 2^k at 0 are all 1 up to order n, and the (n + 1)-st "
                    "difference of P vanishes, so Newton's form gives P(n + 1) = sum_{j=0}^{n} C(n + 1, j) = "
                    "2^(n + 1) - 1.",
                },
                {
                    "rule": "k^(n + 1)",
                    "aux": "Q(x) = x^(n + 1) - P(x)",
                    "finish": "Q is monic of degree n + 1 with roots 0, 1, ..., n, so Q(x) = x(x - 1)...(x - "
                    "n) and P(n + 1) = (n + 1)^(n + 1) - (n + 1)!.",
                },
                {
                    "rule": "(-1)^k",
                    "aux": "Newton's forward-difference form of P",
                    "finish": "The j-th difference of (-1)^k at 0 is (-2)^j, so P(n + 1) = sum_{j=0}^{n} "
                    "C(n + 1, j) (-2)^j = (-1)^(n + 1) - (-2)^(n + 1).",
                },
            ),
        },
    ),
    Problem(
        slug="quadratic_root_location_parameter",
        category="repair",
        summary="Find the parameter values m for which the roots of {quad} = 0 are {cond}, using the "
        "discriminant, the vertex and the sign of f at the boundary together",
        task="Find all real m for which the roots of {quad} = 0 are {cond}.",
        preconditions=("The equation is quadratic in x with a real parameter m",),
        steps=(
            "Let f(x) = {quad}. {lead}",
            "Translate the condition: {rule}.",
            "Solve each inequality in m and intersect the solution sets.",
            "Spot-check one m from each resulting interval (and one just outside) by solving the quadratic "
            "numerically.",
        ),
        avoid=(
            "Do not rely on the discriminant plus Vieta's sum and product when the comparison point is not "
            "0: shift x first or use the sign of f at that point",
            "Do not divide by a leading coefficient that depends on m without handling the value where it "
            "vanishes",
        ),
        signals=(
            "location of roots",
            "discriminant",
            r"/both roots (are )?(greater|less|positive|negative)/i",
        ),
        validation=("python numeric_check.py --tol 1e-9",),
        slots={
            "quad": (
                {
                    "quad": "x^2 - 2mx + m + 6",
                    "lead": "The leading coefficient is 1, so a f(k) > 0 means f(k) > 0.",
                },
                {"quad": "x^2 + (m - 3)x + m", "lead": "The leading coefficient is 1."},
                {"quad": "x^2 - (m + 1)x + 2m - 1", "lead": "The leading coefficient is 1."},
                {"quad": "x^2 + 2(m - 1)x + m + 5", "lead": "The leading coefficient is 1."},
                {"quad": "2x^2 - (m + 2)x + m", "lead": "The leading coefficient is 2 > 0."},
                {
                    "quad": "(m - 1)x^2 - 2mx + m + 3",
                    "lead": "At m = 1 the equation is linear: treat it separately; otherwise use a = m - 1 "
                    "with its sign.",
                },
                {
                    "quad": "m x^2 - 2(m + 1)x + m + 4",
                    "lead": "At m = 0 the equation is linear: treat it separately; otherwise a = m.",
                },
                {"quad": "x^2 - 4mx + 3m^2 + 1", "lead": "The leading coefficient is 1."},
            ),
            "cond": (
                {
                    "cond": "real and both greater than 1",
                    "rule": "discriminant >= 0, vertex -b/(2a) > 1 and a f(1) > 0",
                },
                {
                    "cond": "real and both negative",
                    "rule": "discriminant >= 0, vertex < 0 and a f(0) > 0 (equivalently sum < 0 and product "
                    "> 0)",
                },
                {"cond": "real and of opposite signs", "rule": "a f(0) < 0, which already forces real roots"},
                {
                    "cond": "real, with one root below 2 and the other above 2",
                    "rule": "a f(2) < 0; no discriminant condition is needed",
                },
                {
                    "cond": "real and both in the open interval (0, 3)",
                    "rule": "discriminant >= 0, 0 < vertex < 3, a f(0) > 0 and a f(3) > 0",
                },
            ),
        },
    ),
    Problem(
        slug="rearrangement_inequality_pairing",
        category="explore",
        summary="Pair {a} with {b} optimally by the rearrangement inequality: similarly sorted lists "
        "maximise the sum of products and oppositely sorted lists minimise it",
        task="{setting}: the values {a} are to be paired one-to-one with {b}. {ask}",
        preconditions=("The objective is a sum of products of paired values",),
        steps=(
            "Sort both lists; by the rearrangement inequality the sum of products is largest when both are "
            "sorted the same way and smallest when sorted in opposite orders.",
            "Compute both extremes explicitly for {a} and {b}.",
            "For the number of optimal pairings, note that only tied values can be swapped without changing "
            "the sum: count the permutations within blocks of equal values.",
            "Confirm by brute force over all permutations of the second list.",
        ),
        avoid=(
            "Do not pair the largest with the smallest to 'balance' when the goal is the maximum",
            "Do not assume the sorted pairing is the only optimum when a list has repeated values",
        ),
        signals=("rearrangement inequality", "sum of products", "sorted pairing"),
        validation=("python brute_force.py --max-n 8",),
        slots={
            "lists": (
                {
                    "setting": "Four jobs last 3, 5, 8 and 12 hours and each gets one hourly bonus rate",
                    "a": "3, 5, 8, 12",
                    "b": "2, 4, 7, 9",
                },
                {
                    "setting": "Five products go into shelf slots with daily visits 100, 80, 60, 40, 20 and "
                    "earn the listed profit per visit",
                    "a": "100, 80, 60, 40, 20",
                    "b": "0.5, 1.2, 0.8, 2.0, 1.5",
                },
                {
                    "setting": "Each number 1..6 is multiplied by a distinct number 1..6",
                    "a": "1, 2, 3, 4, 5, 6",
                    "b": "1, 2, 3, 4, 5, 6",
                },
                {
                    "setting": "Weights are hung at distances from a pivot, one weight per hook",
                    "a": "2, 2, 5, 7",
                    "b": "1, 3, 3, 6",
                },
                {
                    "setting": "Signed scores are multiplied by signed weights",
                    "a": "-3, -1, 2, 4",
                    "b": "-2, 0, 1, 5",
                },
                {
                    "setting": "Five tasks with hours 1, 4, 6, 9, 10 are matched to workers with output "
                    "rates per hour",
                    "a": "1, 4, 6, 9, 10",
                    "b": "0.9, 0.7, 0.6, 0.4, 0.2",
                },
                {
                    "setting": "Three machines with speeds 10, 20, 30 units per hour share 5, 15 and 25 "
                    "hours of running time",
                    "a": "10, 20, 30",
                    "b": "5, 15, 25",
                },
                {
                    "setting": "Three ad slots with audiences of 5, 3 and 2 million get ads with conversion "
                    "rates",
                    "a": "5, 3, 2",
                    "b": "0.02, 0.05, 0.03",
                },
                {
                    "setting": "Odd numbers are multiplied by even numbers",
                    "a": "1, 3, 5, 7, 9",
                    "b": "2, 4, 6, 8, 10",
                },
                {
                    "setting": "A student may choose which exam carries which weight (in percent)",
                    "a": "10, 20, 30, 40",
                    "b": "55, 70, 85, 95",
                },
            ),
            "ask": (
                "Find the largest possible sum of products.",
                "Find the smallest possible sum of products.",
                "Find both the largest and the smallest possible sums and their difference.",
                "Find the largest possible sum of products and count how many pairings attain it.",
            ),
        },
    ),
    Problem(
        slug="median_minimises_total_distance",
        category="optimize",
        summary="Minimise a total absolute distance to the points {pts} ({context_short}) by taking the "
        "median, where the slope of the piecewise-linear sum changes sign",
        task="{context} The points are at {pts}. Find every optimal location and the minimum total distance.",
        preconditions=("The cost is a sum of absolute distances on a line",),
        steps=(
            "Sort the points; f(x) = sum |x - a_i| is piecewise linear and its slope at x is (number of "
            "points left of x) - (number of points right of x).",
            "The slope changes sign at the median: an odd count gives the middle point as the unique "
            "optimum, an even count makes the whole interval between the two middle points optimal.",
            "Compute the minimum by pairing the outermost points inward: it is the sum of (largest - "
            "smallest) over the nested pairs.",
            "Check by evaluating f at every data point.",
        ),
        avoid=(
            "Do not use the mean: it minimises the sum of squared distances, not the sum of distances",
            "Do not report one point for an even count without saying the whole middle interval is optimal",
        ),
        signals=("median", "sum of absolute deviations", "piecewise linear"),
        validation=("python brute_force.py --max-n 100",),
        slots={
            "pts": (
                "1, 4, 6, 10, 13",
                "2, 3, 9, 15",
                "0, 5, 5, 8, 20, 30, 31",
                "1, 2, 3, ..., 100",
                "3, 3, 3, 10, 40",
                "-7, -2, 0, 4, 11, 12",
                "10, 20, 30, 40, 50, 60",
                "2, 2, 7, 8, 9, 30, 31, 32",
                "1, 10, 100, 1000",
                "5, 6, 12, 18, 25, 27, 40, 41, 44",
            ),
            "context": (
                {
                    "context": "A warehouse will be built on a straight highway to minimise the total "
                    "distance to stores at the given kilometre markers.",
                    "context_short": "a warehouse on a highway",
                },
                {
                    "context": "A bus stop on a straight street should minimise the total walking distance "
                    "of residents at the given positions (a repeated value means several residents there).",
                    "context_short": "a bus stop",
                },
                {
                    "context": "Minimise f(x) = |x - a_1| + ... + |x - a_n| over real x for the given a_i.",
                    "context_short": "a sum of absolute values",
                },
                {
                    "context": "Friends living along a straight road pick a meeting point that minimises the "
                    "total distance driven.",
                    "context_short": "a meeting point",
                },
            ),
        },
    ),
    Problem(
        slug="compare_huge_powers_by_logarithms",
        category="repair",
        summary="Decide which of {x} and {y} is larger with certified logarithm bounds or an exact chain of "
        "inequalities{cond_short}",
        task="Decide which is larger: {x} or {y}{cond}.",
        preconditions=("Both numbers are too large to compare digit by digit by hand",),
        steps=(
            "Take logarithms: compare the exponent times log(base) on each side, using bounds on the logs "
            "that are certain (for example 0.6931 < ln 2 < 0.6932), not rounded values.",
            "Look for an exact chain through a common base or a monotone comparison, such as "
            "31^11 < 32^11 = 2^55 < 2^56 = 16^14 < 17^14.",
            "For n^(n + 1) versus (n + 1)^n use (1 + 1/n)^n < e; for factorials pair the factors with AM-GM "
            "or use Stirling's formula with explicit error bounds.",
            "Confirm with exact Python integers or mpmath at 50 digits.",
        ),
        avoid=(
            "Do not trust a double-precision comparison when the two logarithms agree to many digits",
            "Do not decide by the exponents or the bases alone: a larger exponent on a smaller base can go "
            "either way",
        ),
        signals=("compare logarithms", "which is larger", r"/\d+\^\d+\s+(or|and|vs\.?)\s+\d+\^\d+/i"),
        validation=("python check_answer.py --exact",),
        slots={
            "pair": (
                {"x": "2^100", "y": "3^63"},
                {"x": "31^11", "y": "17^14"},
                {"x": "100^101", "y": "101^100"},
                {"x": "3^40", "y": "4^30"},
                {"x": "2^1000", "y": "10^300"},
                {"x": "99^100", "y": "100^99"},
                {"x": "e^pi", "y": "pi^e"},
                {"x": "99!", "y": "50^99"},
                {"x": "5^100", "y": "2^233"},
                {"x": "2^1024", "y": "10^308"},
                {"x": "1000^1001", "y": "1001^1000"},
            ),
            "cond": (
                {"cond": " (a contest question, no calculator)", "cond_short": " without a calculator"},
                {
                    "cond": " (a floating-point evaluation overflows, so argue exactly)",
                    "cond_short": " where floats overflow",
                },
                {
                    "cond": ", and give the base-10 logarithm of their ratio to 3 significant figures",
                    "cond_short": " and size the ratio",
                },
                {
                    "cond": ", with a proof a grader can check line by line",
                    "cond_short": " with a checkable proof",
                },
            ),
        },
    ),
    Problem(
        slug="recursive_sequence_limit_fixed_point",
        category="repair",
        summary="Find the limit of a_(n+1) = {f} with a_1 = {a1} by proving convergence first ({behaviour}) "
        "and then choosing the right root of the fixed-point equation",
        task="The sequence is defined by a_1 = {a1} and a_(n+1) = {f}. {ask}",
        preconditions=("The recursion map is continuous where the sequence lives",),
        steps=(
            "Compute the first terms exactly to see the behaviour: {behaviour}.",
            "Prove convergence (monotone and bounded by induction, or a contraction on an invariant "
            "interval) before taking limits.",
            "Pass to the limit in the recursion: {fp}.",
            "Estimate the speed: {speed}. Confirm numerically with mpmath iterations.",
        ),
        avoid=(
            "Do not solve the fixed-point equation before proving the limit exists: a divergent sequence "
            "also 'satisfies' it formally",
            "Do not keep a fixed point outside the interval the terms stay in (such as a negative root for "
            "positive terms)",
        ),
        signals=("monotone convergence theorem", "fixed point", "recursively defined sequence"),
        validation=("python numeric_check.py --tol 1e-12",),
        slots={
            "seq": (
                {
                    "f": "sqrt(2 + a_n)",
                    "a1": "0",
                    "behaviour": "increasing and bounded above by 2",
                    "fp": "L = sqrt(2 + L) with L >= 0, so L^2 - L - 2 = 0 and L = 2",
                    "speed": "the error shrinks by about a factor 1/4 per step",
                },
                {
                    "f": "sqrt(6 + a_n)",
                    "a1": "1",
                    "behaviour": "increasing and bounded above by 3",
                    "fp": "L^2 = 6 + L with L >= 0, so L = 3",
                    "speed": "the error shrinks by about 1/6 per step",
                },
                {
                    "f": "1 + 1/a_n",
                    "a1": "1",
                    "behaviour": "alternating: odd terms increase, even terms decrease",
                    "fp": "L = 1 + 1/L, so L^2 - L - 1 = 0 and the positive root is the golden ratio",
                    "speed": "linear, with ratio about 1/phi^2 (about 0.38)",
                },
                {
                    "f": "(a_n + 2/a_n)/2",
                    "a1": "1",
                    "behaviour": "decreasing from a_2 on and bounded below by sqrt(2) by AM-GM",
                    "fp": "L = (L + 2/L)/2, so L^2 = 2 and L = sqrt(2)",
                    "speed": "quadratic (Newton's method), the correct digits roughly double each step",
                },
                {
                    "f": "cos(a_n)",
                    "a1": "0",
                    "behaviour": "oscillating inside [cos 1, 1], where cos is a contraction",
                    "fp": "L = cos L, the Dottie number, found numerically",
                    "speed": "linear with ratio |sin L|, about 0.67",
                },
                {
                    "f": "1/(2 - a_n)",
                    "a1": "0",
                    "behaviour": "increasing, with a_n = (n - 1)/n exactly",
                    "fp": "L(2 - L) = 1, so (L - 1)^2 = 0 and L = 1",
                    "speed": "only like 1/n, since the map has derivative 1 at the fixed point",
                },
                {
                    "f": "a_n (1 - a_n)",
                    "a1": "1/2",
                    "behaviour": "positive and decreasing",
                    "fp": "L = L(1 - L), so L = 0",
                    "speed": "slow, a_n is about 1/n",
                },
                {
                    "f": "(a_n^2 + 4)/4",
                    "a1": "1",
                    "behaviour": "increasing and bounded above by 2",
                    "fp": "L^2 - 4L + 4 = 0, the double root L = 2",
                    "speed": "slow, about 2 - 4/n, because the fixed point is a double root",
                },
                {
                    "f": "sin(a_n)",
                    "a1": "1",
                    "behaviour": "positive and decreasing",
                    "fp": "L = sin L, so L = 0",
                    "speed": "very slow, a_n is about sqrt(3/n)",
                },
                {
                    "f": "(a_n + 6)/(a_n + 2)",
                    "a1": "1",
                    "behaviour": "alternating around 2 with shrinking swings",
                    "fp": "L^2 + L - 6 = 0, and the terms are positive, so L = 2",
                    "speed": "linear with ratio 1/4 in absolute value",
                },
                {
                    "f": "3 - 2/a_n",
                    "a1": "3",
                    "behaviour": "decreasing and bounded below by 2",
                    "fp": "L^2 - 3L + 2 = 0 with roots 1 and 2; the terms stay above 2, so L = 2",
                    "speed": "linear with ratio 1/2",
                },
            ),
            "ask": (
                "Find its limit.",
                "Prove that it converges and find its limit.",
                "Find its limit and estimate how many terms are needed to get within 10^-6 of it.",
                "Find its limit and justify which root of the fixed-point equation is the right one.",
            ),
        },
    ),
    Problem(
        slug="integer_polynomial_difference_divisibility",
        category="explore",
        summary="Decide whether an integer-coefficient polynomial can satisfy {cond} with the lemma that a - "
        "b divides P(a) - P(b)",
        task="{pre} {cond}{post}",
        preconditions=("The polynomial must have integer coefficients",),
        steps=(
            "Key lemma: for integer-coefficient P, a - b divides P(a) - P(b), because each a^k - b^k factors "
            "as (a - b)(a^(k-1) + ... + b^(k-1)).",
            "Here the two arguments differ by {dx} and the two values by {dy}; check whether {dx} divides "
            "{dy}.",
            "If it does, the line through the two points has integer slope and intercept, so a degree-1 "
            "example exists; if it does not, no integer polynomial of any degree fits.",
            "Test any proposed example with sympy, or verify the divisibility with exact integers.",
        ),
        avoid=(
            "Do not try a few low-degree polynomials and conclude impossibility: the lemma is what rules out "
            "every degree",
            "Do not treat the lemma as sufficient for three or more prescribed values: then check the "
            "divided differences as well",
        ),
        signals=("integer coefficients", "a - b divides p(a) - p(b)", r"/p\(\d+\)\s*=\s*-?\d+/i"),
        validation=("python sympy_verify.py",),
        slots={
            "cond": (
                {"cond": "P(2) = 5 and P(7) = 20", "dx": "5", "dy": "15"},
                {"cond": "P(1) = 7 and P(5) = 12", "dx": "4", "dy": "5"},
                {"cond": "P(0) = 1 and P(10) = 2024", "dx": "10", "dy": "2023"},
                {"cond": "P(-3) = 4 and P(3) = 10", "dx": "6", "dy": "6"},
                {"cond": "P(1) = 2 and P(4) = 17", "dx": "3", "dy": "15"},
                {"cond": "P(2) = 3 and P(9) = 30", "dx": "7", "dy": "27"},
                {"cond": "P(5) = 5 and P(13) = 29", "dx": "8", "dy": "24"},
                {"cond": "P(0) = 2024 and P(2024) = 0", "dx": "2024", "dy": "-2024"},
                {"cond": "P(6) = 1 and P(11) = 13", "dx": "5", "dy": "12"},
                {"cond": "P(-1) = 4 and P(3) = 9", "dx": "4", "dy": "5"},
                {"cond": "P(7) = 77 and P(17) = 7", "dx": "10", "dy": "-70"},
                {"cond": "P(4) = 11 and P(12) = 23", "dx": "8", "dy": "12"},
            ),
            "frame": (
                {"pre": "Does a polynomial with integer coefficients exist with", "post": "?"},
                {
                    "pre": "Prove that no polynomial with integer coefficients satisfies",
                    "post": ", or construct one.",
                },
                {
                    "pre": "A student claims to have found an integer-coefficient polynomial with",
                    "post": ". Decide whether that can be right.",
                },
                {
                    "pre": "Find an integer-coefficient polynomial of lowest degree with",
                    "post": ", or show that none exists.",
                },
            ),
        },
    ),
    Problem(
        slug="finite_difference_polynomial_sequence",
        category="repair",
        summary="Find the closed form and the {k}th term of the polynomial sequence {terms}, ... with a "
        "difference table (degree {deg}) and Newton's forward formula",
        task="The sequence {terms}, ... (n = 1, 2, 3, ...) is given by a polynomial in n of lowest degree. "
        "Find a closed form and the {k}th term.",
        preconditions=("The problem states that the terms come from a polynomial",),
        steps=(
            "Build the difference table until a row is constant; the number of differencing steps is the "
            "degree, {deg} here.",
            "Write a_n = a_1 + C(n - 1, 1) D1 + C(n - 1, 2) D2 + ..., using the first entry of each "
            "difference row (Newton's forward formula).",
            "Expand to a closed form and evaluate at n = {kn}.",
            "Check that the formula reproduces every given term, and evaluate it with sympy.",
        ),
        avoid=(
            "Do not fit a higher-degree polynomial than the constant row shows: the lowest degree is asked "
            "for",
            "Do not index from 0 in Newton's formula when the first term is n = 1: use C(n - 1, j)",
        ),
        signals=("method of differences", "newton forward difference", "difference table"),
        validation=("python brute_force.py --terms 20",),
        slots={
            "seq": (
                {"terms": "1, 5, 14, 30, 55", "deg": "3"},
                {"terms": "2, 6, 12, 20, 30", "deg": "2"},
                {"terms": "3, 10, 21, 36, 55", "deg": "2"},
                {"terms": "0, 6, 24, 60, 120", "deg": "3"},
                {"terms": "1, 4, 10, 20, 35", "deg": "3"},
                {"terms": "5, 11, 21, 35, 53", "deg": "2"},
                {"terms": "1, 7, 19, 37, 61", "deg": "2"},
                {"terms": "2, 3, 10, 29, 66", "deg": "3"},
            ),
            "k": (
                {"k": "10", "kn": "10"},
                {"k": "20", "kn": "20"},
                {"k": "50", "kn": "50"},
                {"k": "100", "kn": "100"},
                {"k": "1000", "kn": "1000"},
            ),
        },
    ),
    Problem(
        slug="periodic_nonlinear_recurrence",
        category="explore",
        summary="Find a_{nn} for the recurrence {rec} with {init} by computing exact terms until the cycle "
        "of length {period} closes, then reducing {nn} modulo {period}",
        task="A sequence satisfies {rec} with {init}. Find a_{nn}.",
        preconditions=("The recurrence is defined at every term (no division by zero)",),
        steps=(
            "Compute terms exactly with fractions (or exact surds): {cycle}.",
            "For a first-order recurrence one repeated value closes the cycle; for a second-order one a "
            "repeated pair of consecutive terms is needed. Here the period is {period}.",
            "Reduce the index: a_{nn} = a_r with r = {nn} mod {period}, reading r = 0 as the last term of "
            "the cycle.",
            "Explain the period if possible (a Mobius map of finite order, or a tangent rotation) and "
            "recheck by direct iteration to a few hundred terms.",
        ),
        avoid=(
            "Do not iterate in floating point: rounding hides the exact return of the cycle",
            "Do not call a second-order recurrence periodic after one repeated value: the pair must repeat",
        ),
        signals=("periodic sequence", "cycle detection", r"/a_\{?\(?n\s*\+\s*1\)?\}?\s*=/i"),
        validation=("python brute_force.py --terms 2000",),
        slots={
            "rec": (
                {
                    "rec": "a_(n+1) = (1 + a_n)/(1 - a_n)",
                    "init": "a_1 = 2",
                    "period": "4",
                    "cycle": "2, -3, -1/2, 1/3, 2, ...",
                },
                {
                    "rec": "a_(n+1) = 1/(1 - a_n)",
                    "init": "a_1 = 2",
                    "period": "3",
                    "cycle": "2, -1, 1/2, 2, ...",
                },
                {
                    "rec": "a_(n+1) = (a_n - 1)/(a_n + 1)",
                    "init": "a_1 = 3",
                    "period": "4",
                    "cycle": "3, 1/2, -1/3, -2, 3, ...",
                },
                {
                    "rec": "a_(n+2) = (1 + a_(n+1))/a_n",
                    "init": "a_1 = 1 and a_2 = 2",
                    "period": "5",
                    "cycle": "1, 2, 3, 2, 1, 1, 2, ...",
                },
                {
                    "rec": "a_(n+2) = a_(n+1)/a_n",
                    "init": "a_1 = 2 and a_2 = 3",
                    "period": "6",
                    "cycle": "2, 3, 3/2, 1/2, 1/3, 2/3, 2, 3, ...",
                },
                {
                    "rec": "a_(n+2) = a_(n+1) - a_n",
                    "init": "a_1 = 1 and a_2 = 3",
                    "period": "6",
                    "cycle": "1, 3, 2, -1, -3, -2, 1, 3, ...",
                },
                {
                    "rec": "a_(n+1) = (sqrt(3) a_n - 1)/(a_n + sqrt(3))",
                    "init": "a_1 = 1",
                    "period": "6",
                    "cycle": "1, 2 - sqrt(3), sqrt(3) - 2, -1, -2 - sqrt(3), 2 + sqrt(3), 1, ... (tan of an "
                    "angle decreasing by 30 degrees)",
                },
            ),
            "nn": ("2025", "100", "1000", "2024", "1000000", "777"),
        },
    ),
    Problem(
        slug="least_squares_line_fit",
        category="repair",
        summary="Fit a least-squares line y = a + b x to {label} with the normal equations (b = Sxy/Sxx) and "
        "report {ask_short}",
        task="For the data {data} ({label}), find {ask}.",
        preconditions=("The model is a straight line with errors in y only",),
        steps=(
            "Compute the means x-bar and y-bar, then Sxx = sum (x - x-bar)^2, Syy = sum (y - y-bar)^2 and "
            "Sxy = sum (x - x-bar)(y - y-bar), keeping full precision.",
            "Solve the normal equations: b = Sxy / Sxx and a = y-bar - b x-bar.",
            "{extra}",
            "Verify with numpy.polyfit(x, y, 1) or numpy.linalg.lstsq.",
        ),
        avoid=(
            "Do not regress x on y: the y-on-x line minimises vertical residuals and has slope Sxy/Sxx",
            "Do not round the means before forming the sums of squares: the rounding error grows",
        ),
        signals=("least squares", "linear regression", "normal equations"),
        validation=("python numeric_check.py --tol 1e-9",),
        slots={
            "data": (
                {"data": "(1, 2), (2, 3), (3, 5), (4, 4), (5, 6)", "label": "a small textbook set"},
                {
                    "data": "(2, 65), (3, 70), (5, 75), (7, 85), (8, 90)",
                    "label": "hours studied against exam score",
                },
                {"data": "(0, 1.1), (1, 2.9), (2, 5.2), (3, 7.1)", "label": "a calibration run"},
                {
                    "data": "(20, 150), (22, 162), (25, 180), (28, 195), (30, 210), (33, 222)",
                    "label": "temperature against ice-cream sales",
                },
                {"data": "(-2, 7), (-1, 5), (0, 4), (1, 1), (2, 0)", "label": "a decreasing trend"},
                {"data": "(1, 10), (2, 8), (4, 7), (5, 3), (7, 2)", "label": "price against demand"},
                {"data": "(0, 50.2), (5, 55.1), (10, 60.7), (15, 66.0)", "label": "years against population"},
                {
                    "data": "(10, 3.2), (20, 5.9), (30, 9.1), (40, 11.8), (50, 15.2)",
                    "label": "load against stretch",
                },
            ),
            "ask": (
                {
                    "ask": "the slope and intercept of the least-squares line y = a + b x",
                    "ask_short": "the slope and intercept",
                    "extra": "Report a and b as exact fractions or to the precision asked.",
                },
                {
                    "ask": "the coefficient of determination R^2 of the least-squares line",
                    "ask_short": "R^2",
                    "extra": "R^2 = Sxy^2 / (Sxx Syy), the share of the variance of y explained by the line.",
                },
                {
                    "ask": "the sum of squared residuals of the least-squares line",
                    "ask_short": "the residual sum",
                    "extra": "SSE = Syy - b Sxy; cross-check by summing (y - a - b x)^2 directly.",
                },
                {
                    "ask": "the correlation coefficient r",
                    "ask_short": "the correlation r",
                    "extra": "r = Sxy / sqrt(Sxx Syy), with the sign of the slope.",
                },
                {
                    "ask": "the least-squares prediction of y at the largest x value plus 5",
                    "ask_short": "an extrapolated prediction",
                    "extra": "Evaluate a + b x at that x and note that it is an extrapolation beyond the "
                    "data.",
                },
            ),
        },
    ),
]

# --- geometry ----------------------------------------------------------------------------------------------

_CITIES = {
    "London": "51.51 N, 0.13 W",
    "New York": "40.71 N, 74.01 W",
    "Tokyo": "35.68 N, 139.69 E",
    "Sydney": "33.87 S, 151.21 E",
    "Paris": "48.86 N, 2.35 E",
    "Cairo": "30.04 N, 31.24 E",
    "Sao Paulo": "23.55 S, 46.63 W",
    "Los Angeles": "34.05 N, 118.24 W",
    "Singapore": "1.35 N, 103.82 E",
    "Moscow": "55.76 N, 37.62 E",
    "Cape Town": "33.92 S, 18.42 E",
    "Mumbai": "19.08 N, 72.88 E",
}

_CITY_PAIRS = tuple(
    {"c1": a, "p1": _CITIES[a], "c2": b, "p2": _CITIES[b]}
    for a, b in (
        ("London", "New York"),
        ("Tokyo", "Sydney"),
        ("Paris", "Cairo"),
        ("Sao Paulo", "Cape Town"),
        ("Los Angeles", "Tokyo"),
        ("Singapore", "Mumbai"),
        ("Moscow", "New York"),
        ("Sydney", "Los Angeles"),
        ("London", "Singapore"),
        ("Cairo", "Mumbai"),
    )
)

GEOMETRY = [
    Problem(
        slug="mass_points_cevian_ratios",
        category="optimize",
        summary="Find AP:PD and BP:PE where cevians AD and BE cross, with BD:DC = {r1} and AE:EC = {r2}, by "
        "mass points instead of coordinates",
        task="In triangle ABC, D lies on BC with BD:DC = {r1} and E lies on CA with AE:EC = {r2}. Segments "
        "AD and BE meet at P. Find AP:PD and BP:PE.",
        preconditions=("The points divide the sides internally in known ratios",),
        steps=(
            "Balance D on BC: with BD:DC = {r1} put the masses at B and C in the inverse ratio, so the "
            "heavier mass sits at the nearer endpoint.",
            "Balance E on CA the same way with AE:EC = {r2}, then rescale both balances so C carries one "
            "mass.",
            "Then D carries m_B + m_C and E carries m_A + m_C, and AP:PD = m_D : m_A, BP:PE = m_E : m_B.",
            "Check with coordinates A = (0, 0), B = (1, 0), C = (0, 1), or with Menelaus on triangle ADC and "
            "the line B-P-E.",
        ),
        avoid=(
            "Do not put the larger mass at the farther point: mass is inversely proportional to the distance "
            "to the balance point",
            "Do not combine the two balances before making C's mass agree in both",
        ),
        signals=("mass point geometry", "cevian ratio", "menelaus theorem"),
        validation=("python numeric_check.py --tol 1e-12",),
        slots={
            "r1": ("1:1", "1:2", "2:1", "2:3", "3:1", "3:2", "1:4"),
            "r2": ("1:1", "1:2", "2:1", "3:1", "1:3", "2:5", "4:3"),
        },
    ),
    Problem(
        slug="great_circle_distance_haversine",
        category="repair",
        summary="Compute the great-circle distance from {c1} to {c2} in {unit} with the haversine formula on "
        "a spherical Earth, with signed coordinates in radians",
        task="Find the great-circle distance between {c1} ({p1}) and {c2} ({p2}) in {unit}, taking the Earth "
        "as a sphere.",
        preconditions=("Latitudes and longitudes are given in degrees with hemispheres",),
        steps=(
            "Convert to signed radians: north and east positive, south and west negative.",
            "Haversine: h = sin^2(dphi/2) + cos(phi1) cos(phi2) sin^2(dlambda/2), and the central angle is "
            "c = 2 asin(sqrt(h)).",
            "Distance = c R with {radius}.",
            "Cross-check with the spherical law of cosines and with a sanity bound: no two points are more "
            "than pi R apart.",
        ),
        avoid=(
            "Do not feed degrees into sin and cos",
            "Do not use a flat Pythagorean distance on latitude and longitude differences: it ignores the "
            "cos(latitude) shrinking of longitude and the curvature",
        ),
        signals=("haversine formula", "great-circle distance", "central angle"),
        validation=("python numeric_check.py --tol 1e-6",),
        slots={
            "cities": _CITY_PAIRS,
            "unit": (
                {"unit": "kilometres", "radius": "R = 6371 km"},
                {
                    "unit": "nautical miles",
                    "radius": "R = 6371 km converted at 1 nautical mile = 1.852 km exactly",
                },
                {"unit": "statute miles", "radius": "R = 3958.8 miles"},
                {
                    "unit": "hours of flight at a ground speed of 900 km/h",
                    "radius": "R = 6371 km, then divide the distance by 900 km/h",
                },
            ),
        },
    ),
    Problem(
        slug="shortest_path_on_box_surface",
        category="explore",
        summary="Find the shortest surface path between opposite corners of a {a} x {b} x {c} {obj} by "
        "unfolding two faces into a plane and comparing the unfoldings",
        task="{who} from one corner of a {a} x {b} x {c} {obj} to the diagonally opposite corner, staying on "
        "the surface{tail}. Find the length of the shortest such path.",
        preconditions=("The path must stay on the faces of the box",),
        steps=(
            "Unfold the two faces the path crosses into one rectangle: the path becomes a straight segment.",
            "The three essentially different unfoldings give sqrt((a + b)^2 + c^2), sqrt((a + c)^2 + b^2) "
            "and sqrt((b + c)^2 + a^2).",
            "The minimum puts the two shortest edges together; here they are {a} and {b}, so the length is "
            "sqrt(({a} + {b})^2 + {c}^2).",
            "Check numerically against all three unfoldings and confirm the answer exceeds the space "
            "diagonal sqrt(a^2 + b^2 + c^2).",
        ),
        avoid=(
            "Do not answer the space diagonal: the path cannot go through the inside",
            "Do not stop at the first net you draw: different pairs of faces give different lengths",
        ),
        signals=("unfolding a net", "shortest path on a surface", "spider and fly"),
        validation=("python numeric_check.py --optimize",),
        slots={
            "dims": (
                {"a": "1", "b": "1", "c": "1"},
                {"a": "1", "b": "2", "c": "3"},
                {"a": "3", "b": "4", "c": "5"},
                {"a": "2", "b": "3", "c": "6"},
                {"a": "4", "b": "4", "c": "8"},
                {"a": "3", "b": "5", "c": "12"},
                {"a": "2", "b": "2", "c": "5"},
                {"a": "1", "b": "3", "c": "4"},
                {"a": "6", "b": "8", "c": "10"},
                {"a": "12", "b": "12", "c": "30"},
            ),
            "who": (
                {"who": "An ant walks", "obj": "closed box", "tail": ""},
                {
                    "who": "A spider crawls",
                    "obj": "room (floor, walls and ceiling)",
                    "tail": " (it cannot cross the air)",
                },
                {"who": "A cable is taped", "obj": "crate", "tail": ", flat against its faces"},
                {"who": "A beetle crawls", "obj": "solid brick", "tail": " and never leaving the faces"},
            ),
        },
    ),
    Problem(
        slug="conic_standard_form_completing_square",
        category="repair",
        summary="For the conic {eq}, find {feature} by completing the square to standard form and reading "
        "off a, b, c and the eccentricity",
        task="For the curve {eq}, find {feature}.",
        preconditions=("The equation has no xy term",),
        steps=(
            "Group the x terms and the y terms and complete the square in each, moving the constants to the "
            "right.",
            "Divide to standard form: an ellipse (x - h)^2/a^2 + (y - k)^2/b^2 = 1, a hyperbola with a minus "
            "sign, or a parabola (y - k)^2 = 4p(x - h) or (x - h)^2 = 4p(y - k).",
            "Read off c from c^2 = a^2 - b^2 (ellipse) or c^2 = a^2 + b^2 (hyperbola), e = c/a, and "
            "directrices at distance a/e from the centre along the focal axis; a parabola has e = 1, focus p "
            "from the vertex and directrix p on the other side.",
            "Verify with sympy: substitute a point of the curve into the focus-directrix relation, or solve "
            "for the axis intercepts.",
        ),
        avoid=(
            "Do not forget to multiply the completed-square constant by the coefficient you factored out",
            "Do not take the x-denominator as a^2 automatically: for an ellipse the larger denominator gives "
            "the major axis, for a hyperbola the positive term gives the transverse axis",
        ),
        signals=("completing the square", "conic section", "eccentricity", r"/foci|focus|directrix/i"),
        validation=("python sympy_verify.py",),
        slots={
            "eq": (
                "9x^2 + 4y^2 - 36x + 8y + 4 = 0",
                "x^2 - 4y^2 - 2x - 16y - 19 = 0",
                "y^2 - 8x - 6y + 25 = 0",
                "4x^2 + 9y^2 + 16x - 18y - 11 = 0",
                "x^2 + 6x - 4y + 1 = 0",
                "16x^2 - 9y^2 - 64x - 54y - 161 = 0",
                "25x^2 + 16y^2 + 100x - 96y - 156 = 0",
                "9y^2 - 4x^2 - 18y - 16x - 43 = 0",
                "x^2 + 4y^2 - 6x + 16y + 21 = 0",
                "2y^2 + 12y - x + 20 = 0",
            ),
            "feature": (
                "its type, its centre (or vertex) and its foci",
                "its eccentricity",
                "the equations of its directrices (or its directrix)",
                "the points where it meets the coordinate axes",
            ),
        },
    ),
    Problem(
        slug="two_circle_overlap_lens_area",
        category="repair",
        summary="Find the overlap area of circles of radii {r1} and {r2} {u}with centres {d} {u}apart "
        "({ctx_short}) as two circular segments from law-of-cosines half-angles",
        task="{ctx}: the circles have radii {r1} {u}and {r2} {u}and their centres are {d} {u}apart. Find the "
        "area of the region covered by both.",
        preconditions=("The circles intersect in two points",),
        steps=(
            "Check the configuration: |{r1} - {r2}| < {d} < {r1} + {r2}, so the circles cross in two points.",
            "Half-angles at the centres from the law of cosines: cos(alpha) = (d^2 + r1^2 - r2^2)/(2 d r1) "
            "and cos(beta) = (d^2 + r2^2 - r1^2)/(2 d r2), in radians.",
            "Area = r1^2 (alpha - sin(alpha) cos(alpha)) + r2^2 (beta - sin(beta) cos(beta)), the two "
            "circular segments cut off by the common chord; an obtuse half-angle simply gives a segment "
            "larger than a half-disc.",
            "Verify by Monte Carlo sampling of points in the smaller circle's bounding square.",
        ),
        avoid=(
            "Do not add the two sector areas without subtracting their triangles",
            "Do not evaluate alpha - sin(alpha) cos(alpha) with the angle in degrees",
        ),
        signals=("circular segment", "lens area|circle intersection area", "law of cosines"),
        validation=("python monte_carlo.py --trials 1000000",),
        slots={
            "circles": (
                {"r1": "5", "r2": "5", "d": "6"},
                {"r1": "3", "r2": "4", "d": "5"},
                {"r1": "2", "r2": "2", "d": "2"},
                {"r1": "10", "r2": "6", "d": "8"},
                {"r1": "1", "r2": "1", "d": "1"},
                {"r1": "4", "r2": "3", "d": "2"},
                {"r1": "6", "r2": "6", "d": "6"},
                {"r1": "5", "r2": "3", "d": "7"},
                {"r1": "8", "r2": "5", "d": "10"},
                {"r1": "2", "r2": "1", "d": "2.5"},
            ),
            "ctx": (
                {
                    "ctx": "Two lawn sprinklers water circular patches",
                    "ctx_short": "two sprinklers",
                    "u": "m ",
                },
                {
                    "ctx": "Two radio transmitters cover circular areas",
                    "ctx_short": "two coverage zones",
                    "u": "km ",
                },
                {
                    "ctx": "A logo is made of two overlapping circles",
                    "ctx_short": "a two-circle logo",
                    "u": "cm ",
                },
                {"ctx": "In the plane, two circles are drawn", "ctx_short": "plane geometry", "u": ""},
            ),
        },
    ),
    Problem(
        slug="euler_polyhedron_formula_counts",
        category="explore",
        summary="Count {ask_short} of the convex polyhedron with {faces} from face-edge incidences and "
        "Euler's formula V - E + F = 2",
        task="A convex polyhedron has {faces}, with {vdeg} faces meeting at every vertex. Find {ask}.",
        preconditions=("The polyhedron is convex, so V - E + F = 2",),
        steps=(
            "Count F = {nf} faces and get E by double counting edge-face incidences: each edge borders "
            "exactly two faces, so E = (sum of the faces' side counts) / 2.",
            "Get V by double counting at the vertices (each vertex meets {vdeg} faces, so V = sum of side "
            "counts / {vdeg}), and check V - E + F = 2.",
            "For diagonals: space diagonals = C(V, 2) - E - (face diagonals), where a k-gon face has k(k - "
            "3)/2 diagonals.",
            "Cross-check with the known solid ({solid}) or a small script over the face list.",
        ),
        avoid=(
            "Do not add up the faces' edges without halving: every edge is shared by two faces",
            "Do not count face diagonals as space diagonals: they lie on the surface",
        ),
        signals=("euler's formula", "v - e + f = 2", "double counting", "polyhedron"),
        validation=("python brute_force.py --geometry",),
        slots={
            "solid": (
                {
                    "faces": "12 pentagonal and 20 hexagonal faces",
                    "vdeg": "3",
                    "nf": "32",
                    "solid": "the truncated icosahedron",
                },
                {
                    "faces": "8 triangular and 6 square faces",
                    "vdeg": "4",
                    "nf": "14",
                    "solid": "the cuboctahedron",
                },
                {
                    "faces": "6 square and 8 hexagonal faces",
                    "vdeg": "3",
                    "nf": "14",
                    "solid": "the truncated octahedron",
                },
                {
                    "faces": "8 triangular and 18 square faces",
                    "vdeg": "4",
                    "nf": "26",
                    "solid": "the rhombicuboctahedron",
                },
                {
                    "faces": "32 triangular and 6 square faces",
                    "vdeg": "5",
                    "nf": "38",
                    "solid": "the snub cube",
                },
                {
                    "faces": "20 triangular and 12 pentagonal faces",
                    "vdeg": "4",
                    "nf": "32",
                    "solid": "the icosidodecahedron",
                },
                {
                    "faces": "8 triangular and 6 octagonal faces",
                    "vdeg": "3",
                    "nf": "14",
                    "solid": "the truncated cube",
                },
                {
                    "faces": "4 triangular and 4 hexagonal faces",
                    "vdeg": "3",
                    "nf": "8",
                    "solid": "the truncated tetrahedron",
                },
                {"faces": "20 triangular faces", "vdeg": "5", "nf": "20", "solid": "the regular icosahedron"},
                {
                    "faces": "12 pentagonal faces",
                    "vdeg": "3",
                    "nf": "12",
                    "solid": "the regular dodecahedron",
                },
            ),
            "ask": (
                {"ask": "the number of vertices", "ask_short": "the vertices"},
                {"ask": "the number of edges", "ask_short": "the edges"},
                {"ask": "the numbers of vertices and edges", "ask_short": "the vertices and edges"},
                {
                    "ask": "the number of space diagonals (segments joining two vertices that do not lie on "
                    "a common face)",
                    "ask_short": "the space diagonals",
                },
            ),
        },
    ),
    Problem(
        slug="regular_polygon_from_interior_angle",
        category="repair",
        summary="Find the regular polygon whose interior angle is {angle} degrees from its exterior angle "
        "360/n = {ext}, then {ask_short}",
        task="A regular polygon has interior angles of {angle} degrees. Find {ask}.",
        preconditions=("The polygon is regular and convex",),
        steps=(
            "Use the exterior angle: 180 - {angle} = {ext} degrees, and the exterior angles sum to 360, so "
            "n = 360 / {ext} = {n}.",
            "{how}",
            "Sanity-check with the interior-angle formula (n - 2) * 180 / n = {angle}.",
        ),
        avoid=(
            "Do not divide 360 by the interior angle: 360/n is the exterior angle",
            "Do not count sides as diagonals: a polygon has n(n - 3)/2 diagonals, not C(n, 2)",
        ),
        signals=("exterior angle", "regular polygon", r"/interior angles? of \d+/i"),
        validation=("python check_answer.py --exact",),
        slots={
            "angle": tuple(
                {"angle": str(180 - 360 // n), "ext": str(360 // n), "n": str(n)}
                for n in (5, 6, 8, 9, 10, 12, 15, 18, 20, 24, 36, 40)
            ),
            "ask": (
                {
                    "ask": "its number of diagonals",
                    "ask_short": "count its diagonals",
                    "how": "Diagonals: each vertex joins n - 3 non-neighbours, and each diagonal has two "
                    "ends, so n(n - 3)/2.",
                },
                {
                    "ask": "the sum of its interior angles",
                    "ask_short": "sum its interior angles",
                    "how": "Interior angle sum: (n - 2) * 180 degrees, from a fan of n - 2 triangles.",
                },
                {
                    "ask": "the angle between two adjacent diagonals drawn from one vertex",
                    "ask_short": "find the angle between adjacent diagonals from a vertex",
                    "how": "The vertices lie on a circle and each side subtends 360/n at the centre, so by "
                    "the inscribed angle theorem the n - 2 angles at a vertex are all 180/n.",
                },
                {
                    "ask": "whether copies of it can tile the plane edge to edge",
                    "ask_short": "decide whether it tiles",
                    "how": "Tiling needs a whole number of copies at each vertex: 360 / (interior angle) "
                    "must be an integer.",
                },
            ),
        },
    ),
]

# --- calculus ----------------------------------------------------------------------------------------------

CALCULUS = [
    Problem(
        slug="taylor_remainder_degree_bound",
        category="optimize",
        summary="Find the lowest Maclaurin degree that approximates {f} at x = {x} within {tol} with the "
        "Lagrange remainder bound M |x|^(n+1) / (n + 1)!",
        task="Find the smallest degree n for which the Lagrange remainder guarantees that the degree-n "
        "Maclaurin polynomial of {f} approximates {f} at x = {x} with an error below {tol}.",
        preconditions=("f is smooth on the interval between 0 and x",),
        steps=(
            "Lagrange: |R_n(x)| <= M |x|^(n+1) / (n + 1)!, where M bounds |f^(n+1)| between 0 and x: "
            "{bound}.",
            "Tabulate M |{x}|^(n+1) / (n + 1)! for n = 1, 2, ... and stop at the first value below {tol}.",
            "For sin and cos, note that consecutive Maclaurin polynomials coincide when the next coefficient "
            "is zero, so a sharper remainder with the next nonzero power can be used; say which bound you "
            "use.",
            "Confirm the actual error with mpmath at 30 digits.",
        ),
        avoid=(
            "Do not bound f^(n+1) by its value at 0 only: M must bound it on the whole interval between 0 "
            "and x",
            "Do not confuse the number of terms with the degree: the question asks for the degree n",
        ),
        signals=("lagrange remainder", "taylor polynomial", "error bound"),
        validation=("python numeric_check.py --series",),
        slots={
            "fx": (
                {"f": "e^x", "x": "1", "bound": "e^c < 3 for c in [0, 1]"},
                {"f": "e^x", "x": "0.5", "bound": "e^c < 2 for c in [0, 0.5]"},
                {"f": "e^x", "x": "-1", "bound": "e^c <= 1 for c in [-1, 0]"},
                {"f": "e^x", "x": "2", "bound": "e^c < 8 for c in [0, 2]"},
                {"f": "sin x", "x": "0.5", "bound": "every derivative of sin is bounded by 1"},
                {"f": "cos x", "x": "1", "bound": "every derivative of cos is bounded by 1"},
                {"f": "sin x", "x": "pi/6", "bound": "every derivative is bounded by 1, and pi/6 < 0.5236"},
                {
                    "f": "cosh x",
                    "x": "1",
                    "bound": "the derivatives are sinh or cosh, both below cosh 1 < 1.55 on [0, 1]",
                },
            ),
            "tol": ("10^-3", "10^-6", "10^-10", "5 x 10^-5", "10^-8"),
        },
    ),
    Problem(
        slug="polar_coordinates_double_integral",
        category="repair",
        summary="Evaluate the double integral of {f} over {region} by switching to polar coordinates with "
        "the Jacobian dA = r dr dtheta",
        task="Evaluate the double integral of {f} over {region}.",
        preconditions=("The region and integrand are naturally described by r and theta",),
        steps=(
            "Substitute x = r cos(theta), y = r sin(theta), so x^2 + y^2 = r^2 and dA = r dr dtheta.",
            "Describe the region in polar form: {limits}.",
            "Integrate in r first, then theta; an integrand odd in y over a region symmetric in the x-axis "
            "integrates to 0.",
            "Check with scipy.integrate.dblquad in Cartesian coordinates.",
        ),
        avoid=(
            "Do not drop the Jacobian factor r",
            "Do not use 0 <= theta <= 2 pi for a region on one side of the origin, such as r <= 2 cos(theta)",
        ),
        signals=("polar coordinates", "jacobian", "r dr dtheta"),
        validation=("python numeric_check.py --quad",),
        slots={
            "f": ("e^(-(x^2 + y^2))", "sqrt(x^2 + y^2)", "x^2 + y^2", "1/(1 + x^2 + y^2)", "y^2", "x y"),
            "region": (
                {"region": "the disk x^2 + y^2 <= 4", "limits": "0 <= r <= 2, 0 <= theta <= 2 pi"},
                {
                    "region": "the quarter disk x^2 + y^2 <= 9 with x, y >= 0",
                    "limits": "0 <= r <= 3, 0 <= theta <= pi/2",
                },
                {"region": "the annulus 1 <= x^2 + y^2 <= 9", "limits": "1 <= r <= 3, 0 <= theta <= 2 pi"},
                {
                    "region": "the upper half disk x^2 + y^2 <= 1 with y >= 0",
                    "limits": "0 <= r <= 1, 0 <= theta <= pi",
                },
                {
                    "region": "the sector of the disk of radius 2 with 0 <= theta <= pi/3",
                    "limits": "0 <= r <= 2, 0 <= theta <= pi/3",
                },
                {
                    "region": "the disk x^2 + y^2 <= 2x",
                    "limits": "0 <= r <= 2 cos(theta), -pi/2 <= theta <= pi/2",
                },
                {
                    "region": "the region inside the cardioid r = 1 + cos(theta)",
                    "limits": "0 <= r <= 1 + cos(theta), 0 <= theta <= 2 pi",
                },
            ),
        },
    ),
    Problem(
        slug="reverse_order_of_integration",
        category="optimize",
        summary="Evaluate {integral} at a = {a} by redrawing the region and reversing the order of "
        "integration, because the inner integral has no elementary antiderivative",
        task="Evaluate the iterated integral {integral} for a = {a}.",
        preconditions=("The inner integrand has no elementary antiderivative in the given order",),
        steps=(
            "Sketch the region from the limits: {region}.",
            "Reverse the order: {swapped}, so the new inner integral is elementary.",
            "Evaluate in closed form as a function of a, then substitute a = {a}.",
            "Check with scipy.integrate.dblquad on the original order.",
        ),
        avoid=(
            "Do not swap the limits symbol for symbol: read the new limits off the sketch of the region",
            "Do not attack {hard} in the original order: it has no elementary antiderivative",
        ),
        signals=("change the order of integration", "fubini", "iterated integral"),
        validation=("python numeric_check.py --quad",),
        slots={
            "integral": (
                {
                    "integral": "int_0^a int_x^a e^(y^2) dy dx",
                    "region": "0 <= x <= y <= a",
                    "swapped": "int_0^a int_0^y e^(y^2) dx dy = int_0^a y e^(y^2) dy",
                    "hard": "int e^(y^2) dy",
                },
                {
                    "integral": "int_0^a int_x^a sin(y^2) dy dx",
                    "region": "0 <= x <= y <= a",
                    "swapped": "int_0^a y sin(y^2) dy",
                    "hard": "int sin(y^2) dy",
                },
                {
                    "integral": "int_0^a int_y^a cos(x^2) dx dy",
                    "region": "0 <= y <= x <= a",
                    "swapped": "int_0^a int_0^x cos(x^2) dy dx = int_0^a x cos(x^2) dx",
                    "hard": "int cos(x^2) dx",
                },
                {
                    "integral": "int_0^a int_x^a sin(y)/y dy dx",
                    "region": "0 <= x <= y <= a",
                    "swapped": "int_0^a (sin(y)/y) y dy = int_0^a sin(y) dy",
                    "hard": "int sin(y)/y dy",
                },
                {
                    "integral": "int_0^(a^2) int_sqrt(x)^a e^(y^3) dy dx",
                    "region": "0 <= x <= y^2, 0 <= y <= a",
                    "swapped": "int_0^a int_0^(y^2) e^(y^3) dx dy = int_0^a y^2 e^(y^3) dy",
                    "hard": "int e^(y^3) dy",
                },
                {
                    "integral": "int_0^a int_x^a e^(-y^2) dy dx",
                    "region": "0 <= x <= y <= a",
                    "swapped": "int_0^a y e^(-y^2) dy",
                    "hard": "int e^(-y^2) dy",
                },
                {
                    "integral": "int_0^(a^3) int_cbrt(x)^a e^(y^4) dy dx",
                    "region": "0 <= x <= y^3, 0 <= y <= a",
                    "swapped": "int_0^a int_0^(y^3) e^(y^4) dx dy = int_0^a y^3 e^(y^4) dy",
                    "hard": "int e^(y^4) dy",
                },
            ),
            "a": ("1", "2", "3", "1/2", "sqrt(pi)", "sqrt(2)"),
        },
    ),
    Problem(
        slug="leibniz_rule_variable_limits",
        category="repair",
        summary="Differentiate F(x) = integral from {lo} to {hi} of {g} dt with the fundamental theorem and "
        "the chain rule at both variable limits, without antidifferentiating",
        task="Let F(x) be the integral of {g} dt from t = {lo} to t = {hi}. Find F'(x).",
        preconditions=("The integrand is continuous in t",),
        steps=(
            "By the fundamental theorem and the chain rule, F'(x) = f(hi(x)) hi'(x) - f(lo(x)) lo'(x) with "
            "f(t) = {g}.",
            "Here hi(x) = {hi} with hi'(x) = {dhi}, and lo(x) = {lo} with lo'(x) = {dlo}.",
            "Substitute t = {hi} and t = {lo} into {g}, multiply by the derivatives and simplify.",
            "Check numerically: compare a central difference of F (computed by quadrature) with the formula "
            "at a couple of points.",
        ),
        avoid=(
            "Do not forget the chain-rule factors hi'(x) and lo'(x), or the minus sign at the lower limit",
            "Do not look for an antiderivative of {g}: none is needed (and usually none is elementary)",
        ),
        signals=(
            "leibniz integral rule",
            "fundamental theorem of calculus",
            "variable limits of integration",
        ),
        validation=("python numeric_check.py --tol 1e-9",),
        slots={
            "limits": (
                {"lo": "0", "hi": "x^2", "dlo": "0", "dhi": "2x"},
                {"lo": "x", "hi": "x^3", "dlo": "1", "dhi": "3x^2"},
                {"lo": "sin x", "hi": "1", "dlo": "cos x", "dhi": "0"},
                {"lo": "-x", "hi": "x", "dlo": "-1", "dhi": "1"},
                {"lo": "1", "hi": "e^x", "dlo": "0", "dhi": "e^x"},
                {"lo": "x", "hi": "2x", "dlo": "1", "dhi": "2"},
                {"lo": "x^2", "hi": "x^3", "dlo": "2x", "dhi": "3x^2"},
                {"lo": "cos x", "hi": "x^2", "dlo": "-sin x", "dhi": "2x"},
            ),
            "g": ("e^(-t^2)", "sin(t^2)", "1/(1 + t^4)", "ln(1 + t^2)", "cos(t^3)"),
        },
    ),
    Problem(
        slug="riemann_sum_limit_as_integral",
        category="repair",
        summary="Evaluate the limit of {sum} as n -> infinity by recognising a Riemann sum for {integral}",
        task="Let n -> infinity in {sum}: {ask}",
        preconditions=("The expression can be written as (1/n) sum of f(k/n) or as its exponential",),
        steps=(
            "Factor out 1/n so each term is f(k/n) for a continuous f; the expression tends to {integral}.",
            "Check the range of k/n: it fixes the integration interval (k = 1..2n gives [0, 2], not [0, 1]).",
            "Evaluate the integral exactly; for a product, take logarithms first and exponentiate at the "
            "end.",
            "Compute the expression numerically at n = 10^3 and 10^6 to confirm the limit.",
        ),
        avoid=(
            "Do not treat the sum as a geometric or telescoping series: the terms depend on n as well as k",
            "Do not drop the 1/n factor or use [0, 1] when k/n runs over a longer interval",
        ),
        signals=("riemann sum", "limit of a sum", r"/sum_\{?k\s*=\s*1\}?\^\{?\d?n\}?/i"),
        validation=("python numeric_check.py --limit",),
        slots={
            "sum": (
                {"sum": "sum_{k=1}^{n} 1/(n + k)", "integral": "int_0^1 dx/(1 + x)"},
                {"sum": "sum_{k=1}^{n} k^2/n^3", "integral": "int_0^1 x^2 dx"},
                {"sum": "sum_{k=1}^{n} n/(n^2 + k^2)", "integral": "int_0^1 dx/(1 + x^2)"},
                {"sum": "(1/n) sum_{k=1}^{n} sqrt(k/n)", "integral": "int_0^1 sqrt(x) dx"},
                {"sum": "sum_{k=1}^{n} 1/sqrt(n^2 + k n)", "integral": "int_0^1 dx/sqrt(1 + x)"},
                {"sum": "(1/n) sum_{k=1}^{n} sin(k pi / n)", "integral": "int_0^1 sin(pi x) dx"},
                {"sum": "(n!/n^n)^(1/n)", "integral": "exp(int_0^1 ln x dx)"},
                {"sum": "sum_{k=1}^{n} k/(n^2 + k^2)", "integral": "int_0^1 x/(1 + x^2) dx"},
                {"sum": "sum_{k=1}^{n} 1/(n + 2k)", "integral": "int_0^1 dx/(1 + 2x)"},
                {"sum": "sum_{k=1}^{2n} 1/(n + k)", "integral": "int_0^2 dx/(1 + x)"},
            ),
            "ask": (
                "evaluate the limit exactly.",
                "evaluate the limit and compare it with the expression at n = 1000.",
                "identify the definite integral the expression approximates and evaluate it.",
                "find the limit and show that it exists.",
            ),
        },
    ),
    Problem(
        slug="gradient_directional_derivative",
        category="repair",
        summary="Find {ask_short} for f = {f} at {pt} from the gradient, normalising the direction {v} when "
        "a directional derivative is asked",
        task="For f = {f} at the point {pt} and the vector v = {v}, find {ask}.",
        preconditions=("f is differentiable at the point",),
        steps=(
            "Compute the gradient of f = {f} symbolically, then evaluate it at {pt}.",
            "{how}",
            "Keep exact values (surds, pi) until the end.",
            "Check with a finite difference (f(p + h u) - f(p))/h for small h along the chosen direction.",
        ),
        avoid=(
            "Do not dot the gradient with an unnormalised vector when the directional derivative in a "
            "direction is asked",
            "Do not substitute the point before differentiating",
        ),
        signals=("gradient", "directional derivative", "unit vector"),
        validation=("python numeric_check.py --tol 1e-9",),
        slots={
            "f": (
                {"f": "x^2 y + 3 x y^2", "pt": "(1, 2)", "v": "(3, 4)"},
                {"f": "e^(x y)", "pt": "(0, 1)", "v": "(1, 1)"},
                {"f": "ln(x^2 + y^2)", "pt": "(1, 1)", "v": "(1, -2)"},
                {"f": "x sin(y)", "pt": "(2, pi/2)", "v": "(-1, 1)"},
                {"f": "sqrt(x^2 + y^2 + z^2)", "pt": "(1, 2, 2)", "v": "(2, -1, 2)"},
                {"f": "x y z", "pt": "(1, -1, 2)", "v": "(1, 2, 2)"},
                {"f": "x^3 - 3 x y + y^3", "pt": "(2, 1)", "v": "(5, 12)"},
                {"f": "(x - y)/(x + y)", "pt": "(3, 1)", "v": "(1, 0)"},
                {"f": "x e^y + y e^z", "pt": "(1, 0, 0)", "v": "(1, 1, 1)"},
                {"f": "100 - x^2 - 2 y^2 (the height of a hill)", "pt": "(3, 2)", "v": "(-1, -1)"},
            ),
            "ask": (
                {
                    "ask": "the directional derivative of f in the direction of v",
                    "ask_short": "the directional derivative",
                    "how": "Normalise u = v/|v|, then D_u f = grad f . u.",
                },
                {
                    "ask": "the maximum rate of increase of f at the point and the direction in which it "
                    "occurs",
                    "ask_short": "the steepest ascent",
                    "how": "The maximum rate is |grad f|, attained in the direction grad f / |grad f|; v is "
                    "not needed.",
                },
                {
                    "ask": "the rate of change of f seen by a particle passing through the point with "
                    "velocity v",
                    "ask_short": "the rate along a moving particle",
                    "how": "By the chain rule df/dt = grad f . v with v not normalised, since its length is "
                    "the speed.",
                },
                {
                    "ask": "the directions in which the instantaneous rate of change of f is zero",
                    "ask_short": "the zero-change directions",
                    "how": "These are the unit vectors orthogonal to grad f (a pair in 2D, a circle of them "
                    "in 3D); v is not needed.",
                },
            ),
        },
    ),
    Problem(
        slug="centroid_of_plane_region",
        category="repair",
        summary="Find {ask_short} for the region {region} from the moments int x (top - bottom) dx and "
        "int (top^2 - bottom^2)/2 dx divided by the area",
        task="For the region {region}, find {ask}.",
        preconditions=("The plate is uniform, so the centroid is the balance point",),
        steps=(
            "Area A = int (top - bottom) over the region: {setup}.",
            "x-bar = (1/A) int x (top - bottom) dx and y-bar = (1/A) int (top^2 - bottom^2)/2 dx; use "
            "symmetry to skip a coordinate when the region is symmetric.",
            "{how}",
            "Check with sympy, or by averaging uniform random points of the region.",
        ),
        avoid=(
            "Do not forget to divide the moments by the area",
            "Do not use (1/A) int y dx for y-bar: the moment about the x-axis needs (top^2 - bottom^2)/2",
        ),
        signals=("centroid", "first moment", "pappus's theorem"),
        validation=("python sympy_verify.py",),
        slots={
            "region": (
                {"region": "between y = x^2 and y = 4", "setup": "top 4, bottom x^2 for -2 <= x <= 2"},
                {"region": "under y = sqrt(x) for 0 <= x <= 4", "setup": "top sqrt(x), bottom 0"},
                {"region": "under y = sin(x) for 0 <= x <= pi", "setup": "top sin(x), bottom 0"},
                {
                    "region": "the quarter disk x^2 + y^2 <= 9 with x, y >= 0",
                    "setup": "top sqrt(9 - x^2) on [0, 3]",
                },
                {
                    "region": "the upper half disk x^2 + y^2 <= 4 with y >= 0",
                    "setup": "top sqrt(4 - x^2) on [-2, 2]",
                },
                {"region": "between y = x and y = x^2", "setup": "top x, bottom x^2 for 0 <= x <= 1"},
                {
                    "region": "the triangle with vertices (0, 0), (4, 0) and (0, 3)",
                    "setup": "top 3 - 3x/4 on [0, 4]",
                },
                {"region": "under y = e^x for 0 <= x <= 1", "setup": "top e^x, bottom 0"},
                {"region": "under y = 4 - x^2 and above the x-axis", "setup": "top 4 - x^2 on [-2, 2]"},
                {"region": "under y = 1/x for 1 <= x <= 2", "setup": "top 1/x, bottom 0"},
            ),
            "ask": (
                {
                    "ask": "the centroid (x-bar, y-bar)",
                    "ask_short": "the centroid",
                    "how": "Report both coordinates exactly.",
                },
                {
                    "ask": "the y-coordinate of the centroid",
                    "ask_short": "y-bar",
                    "how": "Only y-bar is needed, but the area is still required.",
                },
                {
                    "ask": "the volume swept out when the region is rotated about the line y = -1, using "
                    "Pappus's theorem",
                    "ask_short": "a Pappus volume about y = -1",
                    "how": "Pappus: V = 2 pi (y-bar + 1) A, since the centroid is y-bar + 1 from the axis.",
                },
                {
                    "ask": "the point on which a thin uniform plate of this shape balances",
                    "ask_short": "the balance point",
                    "how": "The balance point of a uniform plate is the centroid.",
                },
            ),
        },
    ),
    Problem(
        slug="work_to_pump_liquid_from_tank",
        category="repair",
        summary="Compute the work to pump {liquid} out of {tank} {spout} by integrating rho g A(y) times the "
        "lift distance of each horizontal slice",
        task="Consider {tank}, full of {liquid} (density {rho} kg/m^3). Find the work needed to pump all of "
        "it out {spout}, with g = 9.81 m/s^2.",
        preconditions=("The tank's cross-sections are known as functions of height",),
        steps=(
            "Measure y upward from the bottom (or vertex); the slice at height y has volume A(y) dy with "
            "{slice}.",
            "Each slice rises from height y to the outlet, which is {outlet}.",
            "W = int rho g A(y) (outlet height - y) dy over the liquid, with rho = {rho} kg/m^3; evaluate "
            "exactly and then in joules (or kJ).",
            "Check with a numerical quadrature, or with the centroid shortcut W = rho g V (lift of the "
            "centre of mass).",
        ),
        avoid=(
            "Do not use the tank's full height as every slice's lift: each slice rises a different distance",
            "Do not mix kilograms with newtons: multiply the mass density by g to get weight",
        ),
        signals=("work integral", "pumping problem", "slice method"),
        validation=("python numeric_check.py --quad",),
        slots={
            "tank": (
                {
                    "tank": "an upright cylindrical tank of radius 2 m and height 5 m",
                    "slice": "A(y) = 4 pi for 0 <= y <= 5",
                },
                {
                    "tank": "a conical tank, vertex down, with top radius 3 m and height 6 m",
                    "slice": "radius y/2, so A(y) = pi y^2 / 4 for 0 <= y <= 6",
                },
                {
                    "tank": "a hemispherical bowl of radius 2 m",
                    "slice": "radius^2 = 4 - (2 - y)^2, so A(y) = pi (4y - y^2) for 0 <= y <= 2",
                },
                {
                    "tank": "a rectangular tank 4 m long, 3 m wide and 2 m deep",
                    "slice": "A(y) = 12 for 0 <= y <= 2",
                },
                {
                    "tank": "a trough 6 m long whose ends are isosceles triangles 2 m across the top and 1 m "
                    "deep",
                    "slice": "width 2y at height y, so A(y) = 12 y for 0 <= y <= 1",
                },
                {
                    "tank": "a spherical tank of radius 1.5 m",
                    "slice": "A(y) = pi (1.5^2 - (y - 1.5)^2) = pi (3y - y^2) for 0 <= y <= 3",
                },
            ),
            "liquid": (
                {"liquid": "water", "rho": "1000"},
                {"liquid": "olive oil", "rho": "920"},
                {"liquid": "gasoline", "rho": "740"},
                {"liquid": "seawater", "rho": "1025"},
            ),
            "spout": (
                {"spout": "over the top", "outlet": "the top of the tank"},
                {"spout": "through a spout 1 m above the top", "outlet": "1 m above the top of the tank"},
            ),
        },
    ),
    Problem(
        slug="fourier_series_special_sums",
        category="explore",
        summary="Evaluate {target} from the Fourier series of {f} on (-pi, pi) by {key}",
        task="Use the Fourier series of f(x) = {f} on (-pi, pi) to find {target}: {ask}",
        preconditions=("f is piecewise smooth on (-pi, pi)",),
        steps=(
            "Compute the Fourier coefficients of {f} on (-pi, pi) (use parity: an even function has only "
            "cosine terms, an odd one only sine terms).",
            "Obtain the sum by {key}.",
            "At a jump the series converges to the average of the one-sided limits, and Parseval reads "
            "(1/pi) int f^2 = a_0^2/2 + sum (a_n^2 + b_n^2).",
            "Compare with a partial sum of 10^5 terms (with mpmath for the tail if needed).",
        ),
        avoid=(
            "Do not evaluate the series at a jump as if it converged to f there: it gives the midpoint",
            "Do not drop the a_0^2/2 term or the 1/pi normalisation in Parseval's identity",
        ),
        signals=("fourier series", "parseval's identity", "basel problem|zeta(2)"),
        validation=("python numeric_check.py --series",),
        slots={
            "case": (
                {"f": "x", "target": "sum 1/n^2", "key": "Parseval's identity"},
                {"f": "x^2", "target": "sum 1/n^2", "key": "evaluating the series at x = pi"},
                {"f": "x^2", "target": "sum (-1)^(n+1)/n^2", "key": "evaluating the series at x = 0"},
                {"f": "x^2", "target": "sum 1/n^4", "key": "Parseval's identity"},
                {
                    "f": "|x|",
                    "target": "the sum of 1/n^2 over odd n",
                    "key": "evaluating the series at x = 0",
                },
                {"f": "|x|", "target": "the sum of 1/n^4 over odd n", "key": "Parseval's identity"},
                {
                    "f": "sign(x)",
                    "target": "1 - 1/3 + 1/5 - 1/7 + ...",
                    "key": "evaluating the series at x = pi/2",
                },
                {
                    "f": "e^x",
                    "target": "sum 1/(1 + n^2)",
                    "key": "evaluating at the jump x = pi, where the series converges to cosh(pi)",
                },
                {"f": "x^3 - pi^2 x", "target": "sum 1/n^6", "key": "Parseval's identity"},
            ),
            "ask": (
                "give the exact value.",
                "give the exact value and the Fourier coefficients used.",
                "give the exact value and check it against a partial sum.",
                "give the exact value and state where the Fourier series converges to f.",
                "give the exact value and name the identity or evaluation point used.",
            ),
        },
    ),
    Problem(
        slug="integral_bounds_for_partial_sums",
        category="optimize",
        summary="Bound the sum of {term} for k = 1..{nn} between two integrals of the same function (the "
        "integral test bounds) and read off its integer part when the bounds allow",
        task="Bound S = sum_(k=1)^N {term} for N = {nn} between two explicit numbers using integral "
        "comparison, and give the integer part of S if the bounds determine it.",
        preconditions=("The summand is monotone for k >= 1",),
        steps=(
            "Decide monotonicity: {mono}.",
            "For decreasing f: int_1^(N+1) f <= S <= f(1) + int_1^N f; for increasing f the inequalities "
            "reverse: f(1) + int_1^N f <= S <= int_1^(N+1) f.",
            "Evaluate the antiderivative {anti} at the bounds; if the interval straddles an integer, tighten "
            "with the Euler-Maclaurin correction (f(1) + f(N))/2.",
            "Verify by direct summation with math.fsum for moderate N or mpmath.nsum for huge N.",
        ),
        avoid=(
            "Do not use the decreasing-case inequalities for an increasing summand",
            "Do not sum 10^8 terms naively in floating point for the check: use math.fsum or Euler-Maclaurin",
        ),
        signals=("integral test", "integral comparison", "euler-maclaurin"),
        validation=("python numeric_check.py --series",),
        slots={
            "term": (
                {"term": "1/sqrt(k)", "mono": "1/sqrt(x) is decreasing", "anti": "2 sqrt(x)"},
                {"term": "1/k", "mono": "1/x is decreasing", "anti": "ln x"},
                {"term": "sqrt(k)", "mono": "sqrt(x) is increasing", "anti": "(2/3) x^(3/2)"},
                {"term": "ln(k)", "mono": "ln x is increasing", "anti": "x ln x - x"},
                {"term": "1/k^(2/3)", "mono": "x^(-2/3) is decreasing", "anti": "3 x^(1/3)"},
            ),
            "nn": ("100", "500", "2025", "10^4", "10^5", "10^6", "10^8", "50"),
        },
    ),
    Problem(
        slug="volume_by_known_cross_sections",
        category="repair",
        summary="Find the volume of the solid with base {base} whose cross-sections perpendicular to the "
        "{axis}-axis are {shape}, by integrating the cross-section area",
        task="A solid has base {base}. Its cross-sections perpendicular to the {axis}-axis are {shape}. Find "
        "its volume.",
        preconditions=("Each cross-section is determined by a chord of the base",),
        steps=(
            "Express the chord of the base at position {axis} as a length s({axis}): {chords}.",
            "Area of one cross-section: {area}.",
            "V = int A({axis}) d{axis} over the extent of the base along the {axis}-axis; evaluate exactly.",
            "Check with a numerical quadrature of the same area function.",
        ),
        avoid=(
            "Do not treat the solid as a solid of revolution: the cross-sections are not disks around an "
            "axis",
            "Do not use the half-chord as the side: the side (or diameter, or hypotenuse) is the whole chord",
        ),
        signals=("known cross-sections", "volume by slicing", "cross-sectional area"),
        validation=("python numeric_check.py --quad",),
        slots={
            "base": (
                {
                    "base": "the disk x^2 + y^2 <= 9",
                    "chords": "s = 2 sqrt(9 - t^2) at distance t from the centre, t in [-3, 3], the same "
                    "along either axis",
                },
                {
                    "base": "the region between y = x^2 and y = 4",
                    "chords": "across x: s = 4 - x^2 on [-2, 2]; across y: s = 2 sqrt(y) on [0, 4]",
                },
                {
                    "base": "the triangle with vertices (0, 0), (4, 0) and (0, 4)",
                    "chords": "across x: s = 4 - x on [0, 4]; across y: s = 4 - y on [0, 4]",
                },
                {
                    "base": "the region under y = sqrt(x) for 0 <= x <= 4",
                    "chords": "across x: s = sqrt(x) on [0, 4]; across y: s = 4 - y^2 on [0, 2]",
                },
                {
                    "base": "the ellipse x^2/4 + y^2/9 <= 1",
                    "chords": "across x: s = 3 sqrt(4 - x^2) on [-2, 2]; across y: s = (4/3) sqrt(9 - y^2) "
                    "on [-3, 3]",
                },
            ),
            "shape": (
                {"shape": "squares", "area": "s^2"},
                {"shape": "equilateral triangles", "area": "(sqrt(3)/4) s^2"},
                {"shape": "semicircles with diameter on the base", "area": "(pi/8) s^2"},
                {"shape": "isosceles right triangles with the hypotenuse on the base", "area": "s^2/4"},
            ),
            "axis": ("x", "y"),
        },
    ),
]

# --- applied maths and estimation ---------------------------------------------------------------------------

APPLIED = [
    Problem(
        slug="fermi_order_of_magnitude_estimate",
        category="innovate",
        summary="Estimate {quantity} in {place} to within a factor of 10 by a Fermi chain of round-number "
        "factors with explicit units",
        task="Estimate {quantity} in {place} to within a factor of 10, showing the chain of assumptions.",
        preconditions=("No exact data is available; an order of magnitude is enough",),
        steps=(
            "Break the quantity into factors you can estimate: the population ({pop}) times {chain}.",
            "Give each factor a round value with a one-line justification, keeping the units explicit so "
            "that they cancel to the unit asked for.",
            "Multiply in powers of ten, then sanity-check against an anchor such as about 2,000 working "
            "hours a year or about 2.5 people per household.",
            "Report one significant figure and a plausible range (about a factor of 3 either way).",
        ),
        avoid=(
            "Do not let every factor lean high or every factor lean low: balance the guesses so the errors "
            "partly cancel",
            "Do not report more than one or two significant figures for an order-of-magnitude estimate",
        ),
        signals=("fermi estimate", "order of magnitude", "back-of-the-envelope"),
        validation=("python check_answer.py --tol 1e-4",),
        slots={
            "quantity": (
                {
                    "quantity": "the number of piano tuners working",
                    "chain": "the share of households with a piano, tunings per piano per year, and tunings "
                    "one tuner can do in a year",
                },
                {
                    "quantity": "the litres of coffee drunk per day",
                    "chain": "the share of adults who drink coffee, cups per drinker per day, and litres per "
                    "cup",
                },
                {
                    "quantity": "the number of school buses in service",
                    "chain": "the share of school-age children, the share of them riding a bus, and riders "
                    "per bus",
                },
                {
                    "quantity": "the number of barbers and hairdressers working",
                    "chain": "haircuts per person per year, and haircuts one barber gives in a year",
                },
                {
                    "quantity": "the number of petrol stations",
                    "chain": "cars per person, litres bought per car per week, and litres one station sells "
                    "per week",
                },
                {
                    "quantity": "the number of babies born per day",
                    "chain": "the birth rate per person per year, divided by 365 days",
                },
                {
                    "quantity": "the tonnes of household rubbish produced per week",
                    "chain": "households per person, and kilograms of rubbish per household per week",
                },
                {
                    "quantity": "the number of taxis needed at the evening peak",
                    "chain": "the share of people taking a taxi at the peak hour, and trips one taxi makes "
                    "per hour",
                },
                {
                    "quantity": "the electricity used by home refrigerators per year in kWh",
                    "chain": "households per person, fridges per household, and kWh per fridge per year",
                },
                {
                    "quantity": "the number of dentists working",
                    "chain": "dental visits per person per year, and visits one dentist handles in a year",
                },
            ),
            "place": (
                {"place": "a city of 2.7 million people (Chicago)", "pop": "2.7 million"},
                {"place": "a country of 67 million people (the UK)", "pop": "67 million"},
                {"place": "a town of 50,000 people", "pop": "50,000"},
                {"place": "a metropolitan area of 9 million people (London)", "pop": "9 million"},
            ),
        },
    ),
    Problem(
        slug="average_speed_harmonic_mean",
        category="repair",
        summary="Find the average speed for a trip at {v1} and {v2} {unit} ({frame_short}) as total distance "
        "over total time, which is the harmonic mean when the distances are equal",
        task="A traveller moves at {v1} {unit} and at {v2} {unit}: {frame}",
        preconditions=("Each leg is at a constant speed",),
        steps=(
            "Average speed is total distance / total time; pick a convenient distance or time (for example "
            "the lcm of the speeds as the distance of one leg) and compute both totals.",
            "For equal distances the result is the harmonic mean 2 v1 v2 / (v1 + v2); for equal times it is "
            "the arithmetic mean (v1 + v2) / 2.",
            "With v1 = {v1} and v2 = {v2} {unit}, compute the answer exactly as a fraction.",
            "Check that the answer lies between the two speeds, and below their arithmetic mean when the "
            "distances are equal.",
        ),
        avoid=(
            "Do not average the two speeds when the distances, not the times, are equal",
            "Do not mix units: convert every speed to one unit before combining",
        ),
        signals=("average speed", "harmonic mean", "total distance over total time"),
        validation=("python check_answer.py --exact",),
        slots={
            "speeds": (
                {"v1": "60", "v2": "40", "unit": "km/h"},
                {"v1": "30", "v2": "90", "unit": "km/h"},
                {"v1": "50", "v2": "70", "unit": "km/h"},
                {"v1": "10", "v2": "15", "unit": "km/h"},
                {"v1": "100", "v2": "80", "unit": "km/h"},
                {"v1": "20", "v2": "30", "unit": "mph"},
                {"v1": "45", "v2": "55", "unit": "mph"},
                {"v1": "5", "v2": "3", "unit": "km/h"},
                {"v1": "12", "v2": "8", "unit": "knots"},
                {"v1": "400", "v2": "600", "unit": "km/h"},
            ),
            "frame": (
                {
                    "frame": "out at the first speed and back over the same route at the second. Find the "
                    "average speed for the round trip.",
                    "frame_short": "a round trip",
                },
                {
                    "frame": "half of the total travel time at each speed. Find the average speed.",
                    "frame_short": "equal times",
                },
                {
                    "frame": "the first half of the distance at the first speed and the second half at the "
                    "second. Find the average speed.",
                    "frame_short": "equal half-distances",
                },
                {
                    "frame": "out at the first speed and back at the second; a logbook records the trip "
                    "average as the mean of the two speeds. Find the correct average and the size of the "
                    "logbook's error.",
                    "frame_short": "a wrong logbook average",
                },
            ),
        },
    ),
    Problem(
        slug="loan_amortization_payment",
        category="repair",
        summary="Compute {ask} for a {principal} loan at {rate}% APR over {years} years with the annuity "
        "formula M = P i / (1 - (1 + i)^(-n)) at the monthly rate",
        task="A {principal} loan at {rate}% APR, compounded monthly, is repaid in equal monthly payments "
        "over {years} years. Find {ask}, to the cent.",
        preconditions=("Payments are equal, monthly, and start one month after the loan",),
        steps=(
            "Monthly rate i = {rate} / 1200 and number of payments n = {months}.",
            "Payment M = P i / (1 - (1 + i)^(-n)), the present value of an annuity solved for the payment.",
            "Total interest = n M - P; round M to the cent only at the end.",
            "Check by running the amortization schedule month by month until the balance reaches zero (the "
            "last payment may differ by a few cents).",
        ),
        avoid=(
            "Do not use the APR as the monthly rate or compound annually when the loan compounds monthly",
            "Do not compute simple interest P r t and divide by the months: the balance falls as payments "
            "are made",
        ),
        signals=("amortization", "annuity formula", "monthly payment"),
        validation=("python check_answer.py --tol 1e-6",),
        slots={
            "principal": ("$250,000", "$15,000", "$400,000", "$32,500", "$120,000"),
            "terms": (
                {"rate": "3.5", "years": "30", "months": "360"},
                {"rate": "6", "years": "30", "months": "360"},
                {"rate": "4.8", "years": "15", "months": "180"},
                {"rate": "7.2", "years": "5", "months": "60"},
                {"rate": "9", "years": "3", "months": "36"},
            ),
            "ask": ("the monthly payment", "the total interest paid over the life of the loan"),
        },
    ),
    Problem(
        slug="measurement_uncertainty_propagation",
        category="repair",
        summary="Propagate the measurement uncertainties in {formula} from {meas} {method_short}, via "
        "relative errors and the exponents in the formula",
        task="A quantity is computed as {formula} from the measurements {meas}. Find its value and "
        "uncertainty {method}.",
        preconditions=("The measurement errors are small compared with the values",),
        steps=(
            "Write the relative uncertainty of each measurement, for example 0.02 / 2.50 = 0.8%.",
            "For a product of powers, each factor contributes |exponent| times its relative uncertainty; for "
            "sums, combine absolute uncertainties instead.",
            "{how}",
            "Check by Monte Carlo: sample the inputs from their error distributions and take the spread of "
            "the computed values.",
        ),
        avoid=(
            "Do not add uncertainties in quadrature when the task asks for a worst-case bound, or linearly "
            "when it asks for independent errors",
            "Do not forget the exponent: an error in r enters r^2 twice and an error in T enters 1/T^2 twice",
        ),
        signals=("propagation of uncertainty", "error propagation", "relative uncertainty"),
        validation=("python monte_carlo.py --trials 200000",),
        slots={
            "case": (
                {"formula": "V = pi r^2 h", "meas": "r = 2.50 +/- 0.02 cm and h = 10.0 +/- 0.1 cm"},
                {"formula": "g = 4 pi^2 L / T^2", "meas": "L = 1.000 +/- 0.005 m and T = 2.01 +/- 0.02 s"},
                {"formula": "E = m v^2 / 2", "meas": "m = 2.00 +/- 0.01 kg and v = 3.0 +/- 0.1 m/s"},
                {"formula": "rho = m / V", "meas": "m = 50.0 +/- 0.2 g and V = 20.0 +/- 0.5 cm^3"},
                {"formula": "R = V / I", "meas": "V = 12.0 +/- 0.1 V and I = 2.50 +/- 0.05 A"},
                {"formula": "V = pi d^3 / 6", "meas": "d = 4.00 +/- 0.03 cm"},
                {"formula": "A = l w", "meas": "l = 12.3 +/- 0.1 cm and w = 4.56 +/- 0.05 cm"},
                {"formula": "P = I^2 R", "meas": "I = 1.50 +/- 0.02 A and R = 10.0 +/- 0.2 ohm"},
                {"formula": "v = d / t", "meas": "d = 100.0 +/- 0.5 m and t = 9.58 +/- 0.05 s"},
                {"formula": "k = 4 pi^2 m / T^2", "meas": "m = 0.500 +/- 0.002 kg and T = 0.80 +/- 0.01 s"},
            ),
            "method": (
                {
                    "method": "assuming independent errors (add in quadrature)",
                    "method_short": "in quadrature",
                    "how": "Independent errors: the relative uncertainty is the square root of the sum of "
                    "the squared contributions.",
                },
                {
                    "method": "as a worst-case bound",
                    "method_short": "as a worst-case bound",
                    "how": "Worst case: add the relative contributions linearly.",
                },
                {
                    "method": "as a percentage uncertainty",
                    "method_short": "as a percentage",
                    "how": "Combine the contributions in quadrature and report the relative uncertainty in "
                    "percent.",
                },
                {
                    "method": "and round the result consistently with its uncertainty",
                    "method_short": "with consistent rounding",
                    "how": "Combine in quadrature, round the uncertainty to one or two significant figures, "
                    "and round the value to the same decimal place.",
                },
            ),
        },
    ),
]

# --- proofs, puzzles and games -----------------------------------------------------------------------------

PROOFS_AND_PUZZLES = [
    Problem(
        slug="epsilon_delta_limit_proof",
        category="explore",
        summary="Prove lim_(x -> {a}) {f} = {ll} from the epsilon-delta definition by bounding |f(x) - L| by "
        "a multiple of |x - {a}|, {frame_short}",
        task="Prove that the limit of {f} as x -> {a} is {ll} using the epsilon-delta definition: {frame}",
        preconditions=("f is defined on a punctured neighbourhood of the point",),
        steps=(
            "Factor |f(x) - L| so that |x - {a}| appears: {hint}.",
            "When a leftover factor depends on x, first restrict delta (for example delta <= 1) to bound it, "
            "then take delta as the minimum of that restriction and the epsilon-dependent value.",
            "Write the proof forward: given epsilon > 0, choose delta, assume 0 < |x - {a}| < delta, and "
            "derive |f(x) - L| < epsilon.",
            "Sanity-check the chosen delta numerically for a few small epsilon.",
        ),
        avoid=(
            "Do not let delta depend on x: it may depend only on epsilon (and the point)",
            "Do not present the scratch work backwards as the proof: the final argument must start from "
            "epsilon",
        ),
        signals=("epsilon-delta", "limit definition", "choose delta"),
        validation=("{check}",),
        slots={
            "limit": (
                {
                    "f": "3x + 2",
                    "a": "1",
                    "ll": "5",
                    "hint": "|3x + 2 - 5| = 3 |x - 1|, so delta = epsilon/3",
                },
                {
                    "f": "x^2",
                    "a": "3",
                    "ll": "9",
                    "hint": "|x^2 - 9| = |x - 3| |x + 3|, and delta <= 1 gives |x + 3| < 7, so delta = "
                    "min(1, epsilon/7)",
                },
                {
                    "f": "1/x",
                    "a": "2",
                    "ll": "1/2",
                    "hint": "|1/x - 1/2| = |x - 2| / (2|x|), and delta <= 1 gives |x| > 1, so delta = min(1, "
                    "2 epsilon)",
                },
                {
                    "f": "sqrt(x)",
                    "a": "4",
                    "ll": "2",
                    "hint": "|sqrt(x) - 2| = |x - 4| / (sqrt(x) + 2) <= |x - 4| / 2, so delta = min(4, 2 "
                    "epsilon)",
                },
                {
                    "f": "x^2 + x",
                    "a": "2",
                    "ll": "6",
                    "hint": "|x^2 + x - 6| = |x - 2| |x + 3|, and delta <= 1 gives |x + 3| < 6, so "
                    "delta = min(1, epsilon/6)",
                },
                {
                    "f": "x^3",
                    "a": "1",
                    "ll": "1",
                    "hint": "|x^3 - 1| = |x - 1| |x^2 + x + 1|, and delta <= 1 gives x^2 + x + 1 < 7, so "
                    "delta = min(1, epsilon/7)",
                },
                {
                    "f": "5 - 2x",
                    "a": "-1",
                    "ll": "7",
                    "hint": "|5 - 2x - 7| = 2 |x + 1|, so delta = epsilon/2",
                },
                {
                    "f": "(x^2 - 1)/(x - 1)",
                    "a": "1",
                    "ll": "2",
                    "hint": "for x != 1 the expression equals x + 1, so |f(x) - 2| = |x - 1| and delta = "
                    "epsilon",
                },
                {
                    "f": "x^2 - 4x",
                    "a": "2",
                    "ll": "-4",
                    "hint": "|x^2 - 4x + 4| = |x - 2|^2, so delta = sqrt(epsilon)",
                },
                {
                    "f": "1/(x + 1)",
                    "a": "0",
                    "ll": "1",
                    "hint": "|1/(x + 1) - 1| = |x| / |x + 1|, and delta <= 1/2 gives |x + 1| > 1/2, so "
                    "delta = min(1/2, epsilon/2)",
                },
            ),
            "frame": (
                {
                    "frame": "give an explicit delta in terms of epsilon and write the proof.",
                    "frame_short": "with an explicit delta(epsilon)",
                    "check": "python numeric_check.py --limit",
                },
                {
                    "frame": "find a specific delta that works for epsilon = 0.01 and justify it.",
                    "frame_short": "for epsilon = 0.01",
                    "check": "python numeric_check.py --limit",
                },
                {
                    "frame": "formalise the proof in Lean 4 with Mathlib.",
                    "frame_short": "formalised in Lean",
                    "check": "lean proof.lean",
                },
                {
                    "frame": "a submitted proof chooses delta = epsilon; decide whether it is valid for "
                    "every epsilon and repair it if not.",
                    "frame_short": "checking a proposed delta = epsilon",
                    "check": "python numeric_check.py --limit",
                },
            ),
        },
    ),
    Problem(
        slug="irrationality_proof_by_contradiction",
        category="explore",
        summary="Prove that {num} is irrational by contradiction ({method_short}), {frame_short}",
        task="Prove that {num} is irrational: {frame}",
        preconditions=("The claim is a statement about one specific real number",),
        steps=(
            "Assume {num} = p/q with integers p, q, q > 0 and gcd(p, q) = 1 (or the analogous rational "
            "form).",
            "{method}",
            "Conclude the contradiction explicitly and name the lemma it rests on (unique factorization, or "
            "'a prime dividing a^2 divides a').",
            "Check the write-up: every divisibility step must cite a prime, not a composite number.",
        ),
        avoid=(
            "Do not use 'k divides a^2 implies k divides a' for a composite k: it fails for k = 4, a = 2",
            "Do not forget the lowest-terms assumption when the contradiction relies on it",
        ),
        signals=("proof by contradiction", "irrational", "lowest terms"),
        validation=("{check}",),
        slots={
            "num": (
                {
                    "num": "sqrt(2)",
                    "method_short": "parity",
                    "method": "Square: p^2 = 2 q^2, so p is even; write p = 2r, then q^2 = 2 r^2 and q is "
                    "even too, contradicting gcd(p, q) = 1.",
                },
                {
                    "num": "sqrt(3)",
                    "method_short": "divisibility by 3",
                    "method": "p^2 = 3 q^2, so 3 divides p (3 is prime); p = 3r gives q^2 = 3 r^2, so 3 "
                    "divides q.",
                },
                {
                    "num": "sqrt(6)",
                    "method_short": "divisibility by 2",
                    "method": "p^2 = 6 q^2 makes p even; p = 2r gives 2 r^2 = 3 q^2, so q is even as well.",
                },
                {
                    "num": "the cube root of 2",
                    "method_short": "parity of cubes",
                    "method": "p^3 = 2 q^3, so p is even; p = 2r gives q^3 = 4 r^3, so q is even.",
                },
                {
                    "num": "sqrt(2) + sqrt(3)",
                    "method_short": "reduction to sqrt(6)",
                    "method": "If s = sqrt(2) + sqrt(3) were rational, so would be (s^2 - 5)/2 = sqrt(6); "
                    "prove sqrt(6) irrational as above.",
                },
                {
                    "num": "log_2(3)",
                    "method_short": "parity of powers",
                    "method": "log_2(3) = p/q with p, q > 0 gives 2^p = 3^q, an even number equal to an odd "
                    "one.",
                },
                {
                    "num": "log_10(2)",
                    "method_short": "unique factorization",
                    "method": "log_10(2) = p/q gives 10^p = 2^q, so 5 divides 2^q, which is impossible for p "
                    "> 0.",
                },
                {
                    "num": "e",
                    "method_short": "the series tail",
                    "method": "Multiply e = sum 1/k! by q!: q!(e - sum_{k<=q} 1/k!) is a positive integer "
                    "but lies strictly between 0 and 1/q <= 1.",
                },
                {
                    "num": "the golden ratio (1 + sqrt(5))/2",
                    "method_short": "reduction to sqrt(5)",
                    "method": "If it were rational, so would be 2 phi - 1 = sqrt(5); then p^2 = 5 q^2 forces "
                    "5 to divide p and q.",
                },
                {
                    "num": "the cube root of 5",
                    "method_short": "divisibility by 5",
                    "method": "p^3 = 5 q^3, so 5 divides p; p = 5r gives q^3 = 25 r^3, so 5 divides q.",
                },
            ),
            "frame": (
                {
                    "frame": "write a complete proof by contradiction.",
                    "frame_short": "as a full written proof",
                    "check": "python check_answer.py --exact",
                },
                {
                    "frame": "write a short proof suitable for a contest solution.",
                    "frame_short": "in contest style",
                    "check": "python check_answer.py --exact",
                },
                {
                    "frame": "formalise the proof in Lean 4 with Mathlib.",
                    "frame_short": "formalised in Lean",
                    "check": "lean proof.lean",
                },
                {
                    "frame": "review a submitted proof of this claim and point out any gap, such as a "
                    "missing lowest-terms assumption or an unproved divisibility lemma.",
                    "frame_short": "reviewing a proof",
                    "check": "python check_answer.py --exact",
                },
            ),
        },
    ),
    Problem(
        slug="divergent_series_manipulation_fallacy",
        category="repair",
        summary="Find the invalid step in a derivation that {claim}: algebra on a divergent series or "
        "improper integral as if it converged; {frame_short}",
        task="Review a submitted derivation that {claim}: {frame}",
        preconditions=("The argument manipulates an infinite sum or improper integral term by term",),
        steps=(
            "Locate the first step that treats the object as a number: {flaw}.",
            "Name the hypothesis that fails (convergence, absolute convergence for rearrangements, or "
            "continuity of the integrand on the interval).",
            "State what is actually true, such as divergence, the Cesaro or Abel value with its different "
            "meaning, or a rearrangement to any value by Riemann's theorem.",
            "Support the verdict numerically by showing the partial sums or truncated integrals do not "
            "settle.",
        ),
        avoid=(
            "Do not accept 'S = ...' as a starting point before the series has been shown to converge",
            "Do not call the derivation correct because it matches a regularised value: ordinary summation "
            "still diverges",
        ),
        signals=("divergent series", "invalid manipulation", "riemann rearrangement theorem"),
        validation=("python numeric_check.py --series",),
        slots={
            "claim": (
                {
                    "claim": "1 - 1 + 1 - 1 + ... = 1/2 from S = 1 - S",
                    "flaw": "naming the sum S assumes it exists; the partial sums alternate between 1 and 0",
                },
                {
                    "claim": "1 + 2 + 4 + 8 + ... = -1 from S = 1 + 2S",
                    "flaw": "S is infinite, so subtracting 2S from S is undefined",
                },
                {
                    "claim": "1 + 2 + 3 + ... = -1/12 by subtracting shifted copies of series",
                    "flaw": "shifting and subtracting divergent series term by term is not a valid operation",
                },
                {
                    "claim": "ln 2 = (1/2) ln 2 by regrouping the alternating harmonic series as one "
                    "positive term followed by two negative terms",
                    "flaw": "the series converges only conditionally, so rearranging its terms changes the "
                    "sum",
                },
                {
                    "claim": "0 = 1 by grouping 1 - 1 + 1 - ... as (1 - 1) + (1 - 1) + ... and as "
                    "1 + (-1 + 1) + ...",
                    "flaw": "inserting brackets is valid only for convergent series",
                },
                {
                    "claim": "the harmonic series converges because its terms tend to 0",
                    "flaw": "terms tending to 0 is necessary, not sufficient; the grouping 1/2 + (1/3 + 1/4) "
                    "+ ... shows divergence",
                },
                {
                    "claim": "the integral of 1/x^2 from -1 to 1 equals -2 by the fundamental theorem of "
                    "calculus",
                    "flaw": "1/x^2 is unbounded at 0, so the integral is improper and diverges",
                },
                {
                    "claim": "1 + 3 + 9 + ... = -1/2 by the formula a/(1 - r)",
                    "flaw": "a/(1 - r) holds only for |r| < 1; here r = 3",
                },
            ),
            "frame": (
                {
                    "frame": "decide whether it is valid and name the first invalid step.",
                    "frame_short": "naming the first invalid step",
                },
                {
                    "frame": "rewrite it correctly, stating what is actually true.",
                    "frame_short": "with a correction",
                },
                {
                    "frame": "grade it PASS or FAIL with a one-paragraph reason.",
                    "frame_short": "as a grading verdict",
                },
                {
                    "frame": "explain the error to a student who found the argument convincing.",
                    "frame_short": "explained for a student",
                },
                {
                    "frame": "identify which theorem's hypothesis the argument silently assumes.",
                    "frame_short": "naming the violated hypothesis",
                },
            ),
        },
    ),
    Problem(
        slug="proof_proves_converse_check",
        category="repair",
        summary="Check a submitted proof that {stmt} for the converse error: it argues from the conclusion "
        "or proves the reverse implication; {frame_short}",
        task="Review a submitted proof that {stmt}. The argument {argument}. {frame}",
        preconditions=("The statement is an implication or an inequality proved by a chain of steps",),
        steps=(
            "Write the claim as 'hypothesis implies conclusion' and mark which side each line of the "
            "argument starts from.",
            "The argument proves the reverse direction: {gap}.",
            "Repair it: {fix}.",
            "Test the reversed claim on examples to see whether the mistake merely leaves a gap or proves "
            "something false.",
        ),
        avoid=(
            "Do not accept a chain that starts from the conclusion and ends at a true statement unless every "
            "step is reversible",
            "Do not call a proof of the converse a proof of the statement even when both happen to be true",
        ),
        signals=("converse", "affirming the consequent", "working backwards"),
        validation=("python check_answer.py --exact",),
        slots={
            "stmt": (
                {
                    "stmt": "if n^2 is even then n is even",
                    "argument": "takes n = 2k and shows n^2 = 4k^2 is even",
                    "gap": "it shows 'n even implies n^2 even'",
                    "fix": "prove the contrapositive: if n = 2k + 1 then n^2 = 2(2k^2 + 2k) + 1 is odd",
                },
                {
                    "stmt": "if 3 divides n^2 then 3 divides n",
                    "argument": "takes n = 3k and shows 9k^2 is divisible by 3",
                    "gap": "it shows '3 | n implies 3 | n^2'",
                    "fix": "use that 3 is prime (Euclid's lemma), or check n = 3k + 1 and n = 3k + 2 by "
                    "contrapositive",
                },
                {
                    "stmt": "(a + b)/2 >= sqrt(ab) for positive a and b",
                    "argument": "squares the inequality and simplifies it to (a - b)^2 >= 0",
                    "gap": "it derives a true statement from the claim instead of the claim from a true "
                    "statement",
                    "fix": "start from (sqrt(a) - sqrt(b))^2 >= 0 and expand forward, noting each step is "
                    "reversible for positive a and b",
                },
                {
                    "stmt": "x^2 + 1 >= 2x for every real x",
                    "argument": "starts from x^2 + 1 >= 2x and rearranges it to (x - 1)^2 >= 0",
                    "gap": "the chain runs from the conclusion to a truth",
                    "fix": "begin with (x - 1)^2 >= 0 and add 2x to both sides",
                },
                {
                    "stmt": "if a product of two integers is odd then both are odd",
                    "argument": "multiplies two odd numbers and shows the product is odd",
                    "gap": "it shows 'both odd implies product odd'",
                    "fix": "prove the contrapositive: if one factor is even the product is even",
                },
                {
                    "stmt": "a triangle with sides 3, 4 and 5 is right-angled",
                    "argument": "cites Pythagoras' theorem and checks 3^2 + 4^2 = 5^2",
                    "gap": "Pythagoras says 'right-angled implies a^2 + b^2 = c^2', the reverse of what is "
                    "needed",
                    "fix": "cite the converse of Pythagoras, or use the law of cosines to get cos C = 0",
                },
                {
                    "stmt": "if the digit sum of n is divisible by 9 then n is divisible by 9",
                    "argument": "takes n = 9k and shows its digit sum is a multiple of 9",
                    "gap": "it shows '9 | n implies 9 | digit sum'",
                    "fix": "use n congruent to its digit sum modulo 9, which gives both directions at once",
                },
                {
                    "stmt": "x + 1/x >= 2 for every positive x",
                    "argument": "multiplies the claim by x and reaches (x - 1)^2 >= 0",
                    "gap": "it argues from the claim to a true statement",
                    "fix": "start from (x - 1)^2 >= 0, divide by x > 0, and rearrange forward",
                },
            ),
            "frame": (
                {"frame": "Decide whether the proof is valid.", "frame_short": "deciding validity"},
                {
                    "frame": "Point to the exact line where the logic goes wrong.",
                    "frame_short": "pinpointing the line",
                },
                {"frame": "Grade it PASS or FAIL with a reason.", "frame_short": "as a grading verdict"},
                {"frame": "Rewrite it as a correct proof.", "frame_short": "with a corrected proof"},
                {
                    "frame": "Explain to the author why the conclusion does not follow.",
                    "frame_short": "explained to the author",
                },
            ),
        },
    ),
    Problem(
        slug="counterfeit_coin_balance_weighings",
        category="explore",
        summary="Find the minimum number of balance weighings to find a counterfeit among {n} coins "
        "({variant_short}) from the three-outcome information bound and a matching strategy",
        task="Among {n} coins exactly one is counterfeit; {variant}. Find the minimum number of weighings on "
        "a balance scale that always suffices, and give a strategy.",
        preconditions=("The balance compares two pans and reports left, right or equal",),
        steps=(
            "Count the possible answers and use that each weighing has 3 outcomes: {bound}.",
            "Find the smallest k meeting the bound for n = {n}.",
            "Build a strategy achieving it: {scheme}.",
            "Verify the strategy by a brute-force check over every possible counterfeit (and weight "
            "direction).",
        ),
        avoid=(
            "Do not use 2^k as the information bound: a balance has three outcomes, not two",
            "Do not assume the unknown-direction case needs only log_3 of 2n weighings: the first weighing "
            "cannot split the cases evenly without a reference coin",
        ),
        signals=("balance scale", "counterfeit coin", "information-theoretic bound", "ternary search"),
        validation=("python brute_force.py --worst-case",),
        slots={
            "n": ("8", "9", "12", "13", "26", "27", "39", "40", "80", "100"),
            "variant": (
                {
                    "variant": "it is known to be lighter than the others",
                    "variant_short": "known lighter",
                    "bound": "there are n possibilities, so k weighings can suffice only if 3^k >= n, and "
                    "that is enough",
                    "scheme": "split the candidates into three groups as equal as possible, weigh two of "
                    "them, and keep the lighter pan (or the group left off if they balance)",
                },
                {
                    "variant": "it is known to be heavier than the others",
                    "variant_short": "known heavier",
                    "bound": "n possibilities, so the condition is 3^k >= n",
                    "scheme": "split into three near-equal groups and follow the heavier pan or the group "
                    "left off",
                },
                {
                    "variant": "it may be heavier or lighter, and you must identify it and say which",
                    "variant_short": "unknown direction",
                    "bound": "with no reference coin, k weighings handle at most (3^k - 3)/2 coins (Dyson)",
                    "scheme": "use a Dyson-style labelling of coins by ternary codes so each weighing's pans "
                    "are balanced in number and every coin has a distinct outcome pattern",
                },
                {
                    "variant": "it may be heavier or lighter, you must identify it and say which, and one "
                    "extra coin known to be genuine is available",
                    "variant_short": "unknown direction with a reference coin",
                    "bound": "with a reference coin, k weighings handle at most (3^k - 1)/2 coins",
                    "scheme": "use the genuine coin to balance the pan counts in the first weighing, then "
                    "proceed as in the classic 12-coin solution",
                },
            ),
        },
    ),
    Problem(
        slug="cryptarithm_column_carries",
        category="repair",
        summary="Solve the cryptarithm {puzzle} ({ask_short}) by column equations with carries, "
        "leading-digit bounds and pruning, confirmed by brute force",
        task="In the cryptarithm {puzzle}, each letter stands for a different digit and no number starts "
        "with 0. {ask}",
        preconditions=("Distinct letters stand for distinct digits",),
        steps=(
            "Write one equation per column from the right, with carries c_i (0 or 1 for two summands, up to "
            "the number of summands minus 1 in general).",
            "Start from the leading column: a result longer than every summand forces its first letter to be "
            "a small carry (1 for a sum of two numbers).",
            "Branch on the most constrained column, propagate, and prune with the distinct-digit rule.",
            "Confirm with itertools.permutations over the digits, skipping leading zeros, and {finish}.",
        ),
        avoid=(
            "Do not let a leading letter be 0",
            "Do not stop at the first assignment found when the question asks for all solutions, uniqueness "
            "or the best one",
        ),
        signals=("cryptarithm|alphametic", "column addition with carries", r"/[A-Z]+ \+ [A-Z]+ = [A-Z]+/"),
        validation=("python brute_force.py --logic",),
        slots={
            "puzzle": (
                "SEND + MORE = MONEY",
                "TWO + TWO = FOUR",
                "ODD + ODD = EVEN",
                "CROSS + ROADS = DANGER",
                "BASE + BALL = GAMES",
                "EAT + THAT = APPLE",
                "FORTY + TEN + TEN = SIXTY",
                "DONALD + GERALD = ROBERT",
                "COCA + COLA = OASIS",
                "SIX + SEVEN + SEVEN = TWENTY",
                "USSR + USA = PEACE",
                "WRONG + WRONG = RIGHT",
            ),
            "ask": (
                {
                    "ask": "Find a solution.",
                    "ask_short": "one solution",
                    "finish": "report one valid assignment",
                },
                {
                    "ask": "How many solutions are there?",
                    "ask_short": "counting solutions",
                    "finish": "count every valid assignment",
                },
                {
                    "ask": "Decide whether the solution is unique.",
                    "ask_short": "uniqueness",
                    "finish": "check whether exactly one assignment survives",
                },
                {
                    "ask": "Among all solutions, find the one with the largest value of the result.",
                    "ask_short": "the largest result",
                    "finish": "keep the assignment with the largest result",
                },
            ),
        },
    ),
    Problem(
        slug="zero_sum_game_mixed_strategy",
        category="explore",
        summary="Solve the zero-sum matrix game {matrix} ({ctx_short}): check for a saddle point, otherwise "
        "find the mixed strategies that make the opponent indifferent",
        task="{ctx} The payoff matrix for the row player is {matrix} (rows are the row player's choices). "
        "Find optimal strategies for both players and the value of the game.",
        preconditions=("The game is zero-sum and finite",),
        steps=(
            "Look for a saddle point: compare the largest row minimum with the smallest column maximum; if "
            "they are equal, pure strategies are optimal.",
            "Remove dominated rows and columns, then for a 2 x 2 game choose the row mix p so that both "
            "columns give the row player the same expected payoff, and the column mix likewise.",
            "For a 2 x n game plot the row player's expected payoff against p for each column and take the "
            "highest point of the lower envelope.",
            "Verify with a linear program (scipy.optimize.linprog) for the value and both strategies.",
        ),
        avoid=(
            "Do not mix strategies when a saddle point exists",
            "Do not set the row mix by equalising the row player's own rows: the mix must make the opponent "
            "indifferent",
        ),
        signals=("zero-sum game", "mixed strategy", "saddle point", "minimax theorem"),
        validation=("python numeric_check.py --lp",),
        slots={
            "matrix": (
                "[[3, -1], [-2, 4]]",
                "[[2, 5], [4, 1]]",
                "[[4, 2], [3, 1]]",
                "[[9, 4], [5, 8]]",
                "[[1, -1], [-1, 1]]",
                "[[5, 1], [3, 4]]",
                "[[-2, 3], [3, -4]]",
                "[[6, 2], [5, 3]]",
                "[[2, 3, 1], [4, 0, 2]]",
                "[[1, 4], [3, 2]]",
            ),
            "ctx": (
                {"ctx": "Two players play a zero-sum matrix game.", "ctx_short": "a plain matrix game"},
                {
                    "ctx": "Two firms compete for market share, and entries are the row firm's gain in "
                    "percentage points.",
                    "ctx_short": "a market-share contest",
                },
                {
                    "ctx": "An attacker (rows) and a defender (columns) choose targets, and entries are the "
                    "attacker's payoff.",
                    "ctx_short": "an attacker-defender game",
                },
                {
                    "ctx": "Two friends play a guessing game for points, and entries are what the row player "
                    "wins.",
                    "ctx_short": "a guessing game",
                },
            ),
        },
    ),
    Problem(
        slug="josephus_survivor_position",
        category="innovate",
        summary="Find the Josephus survivor among {n} people when every {kth} person is eliminated, with the "
        "recurrence J(n) = (J(n - 1) + {k}) mod n {shortcut}",
        task="{n} people stand in a circle numbered 1 to {n}. Counting starts at person 1, and every {kth} "
        "person is eliminated until one remains. Find the survivor's number.",
        preconditions=("The elimination step is fixed and counting continues from the next person",),
        steps=(
            "Use 0-indexed positions: J(1) = 0 and J(m) = (J(m - 1) + {k}) mod m, since after the first "
            "elimination the circle is a relabelled instance of size m - 1.",
            "{closed}",
            "Iterate up to m = {n} (linear time) and add 1 to convert back to the numbering 1..{n}.",
            "Check by simulating the circle directly with a deque for the same n.",
        ),
        avoid=(
            "Do not mix 0-indexed and 1-indexed positions: the recurrence is clean only with 0-indexing",
            "Do not restart the count at person 1 after each elimination: counting continues from the next "
            "person",
        ),
        signals=(
            "josephus problem",
            "elimination in a circle",
            r"/every (second|third|\d+(st|nd|rd|th)) person/i",
        ),
        validation=("python brute_force.py --max-n 1000",),
        slots={
            "n": ("10", "13", "30", "41", "64", "100", "500", "1000", "2025", "100000"),
            "k": (
                {
                    "k": "2",
                    "kth": "2nd",
                    "shortcut": "or its closed form",
                    "closed": "For k = 2 there is a closed form: write n = 2^a + l with 0 <= l < 2^a; the "
                    "survivor is 2l + 1 (a one-bit left rotation of n in binary).",
                },
                {
                    "k": "3",
                    "kth": "3rd",
                    "shortcut": "iterated",
                    "closed": "For k = 3 no simple closed form exists; the recurrence is the method.",
                },
                {
                    "k": "4",
                    "kth": "4th",
                    "shortcut": "iterated",
                    "closed": "For k = 4 iterate the recurrence; skipping ahead in blocks speeds it up for "
                    "huge n.",
                },
                {
                    "k": "7",
                    "kth": "7th",
                    "shortcut": "iterated",
                    "closed": "For k = 7 iterate the recurrence; for n much larger than k, jump several "
                    "steps at once while J + k < m.",
                },
            ),
        },
    ),
]

PROBLEMS: list[Problem] = [
    *NUMBER_THEORY,
    *COMBINATORICS,
    *PROBABILITY,
    *ALGEBRA,
    *GEOMETRY,
    *CALCULUS,
    *APPLIED,
    *PROOFS_AND_PUZZLES,
]
