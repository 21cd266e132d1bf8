"""Export the embedding model to ONNX (and quantize it to int8): run as its own process.

`python -m app.embeddings.export MODELS_DIR [--int8] [--model-dir DIR]` writes `all-MiniLM-L6-v2.onnx`
(and `all-MiniLM-L6-v2.int8.onnx`) into MODELS_DIR unless they already exist; with `--model-dir` (a
fine-tuned model, GENEBANK_EMBEDDING_MODEL_DIR) the files are named after its weights' fingerprint
(`all-MiniLM-L6-v2+ft-<fingerprint>.onnx`, app/embeddings/model.py), beside the stock export and
never in its place. The export needs torch and
sentence-transformers (~500 MiB resident once imported, and never released); the serving process
only ever runs `ensure_model`, which starts this module as a child process when a file is missing,
so a server's first start peaks no higher than its later ones (bench/serve_memory.py).

The transformer is traced with mean pooling and L2 normalisation folded into the graph. fp32 gives
the reference vectors (cosine ≥ 0.9999 against sentence-transformers); int8 uses dynamic
per-channel quantization of the weights. The feed-forward output projections stay fp32: quantizing
them too cost the most accuracy (minimum cosine 0.983 instead of 0.994 on the corpus sample) for
little speed.

`python -m app.embeddings.export MODELS_DIR --cross-encoder DIR` exports the guard-pair cross-encoder
of GENEBANK_GUARD_MODEL_DIR (app/evolution/pair_model.py) instead: its one logit per pair, as
`guard-pair+<fingerprint>.onnx`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, cast

from app.embeddings.model import EmbeddingModel, embedding_model

# The stock model's files (a fine-tuned model's: EmbeddingModel.onnx_file).
FP32_NAME = "all-MiniLM-L6-v2.onnx"
INT8_NAME = "all-MiniLM-L6-v2.int8.onnx"
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def _temporary(target: Path) -> Path:
    # Per process: two first starts sharing a models directory must not write the same file.
    return target.with_name(f"{target.name}.{os.getpid()}.tmp")


def export_in_child(models_dir: Path, arguments: list[str], target: Path, what: str) -> None:
    """Run this module in a child process (`python -m app.embeddings.export MODELS_DIR ARGUMENTS`),
    so the caller never imports torch; raises RuntimeError when `target` is not written."""
    import app

    models_dir.mkdir(parents=True, exist_ok=True)
    # The child finds this very `app` package whether it is installed or on PYTHONPATH only.
    root = str(Path(app.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "app.embeddings.export", str(models_dir), *arguments]
    # This interpreter, this module, directory paths: no shell, nothing from a request.
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)  # noqa: S603
    if done.returncode != 0 or not target.exists():
        raise RuntimeError(f"exporting {what} failed ({done.returncode}): {done.stderr[-2000:]}")


def export_fp32(target: Path, source: EmbeddingModel | None = None) -> None:
    import torch
    from sentence_transformers import SentenceTransformer

    directory = (source or embedding_model()).directory
    model = SentenceTransformer(str(directory), device="cpu")
    transformer = cast(torch.nn.Module, model[0].auto_model).eval()

    class Pooled(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.transformer = transformer

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            hidden = self.transformer(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2, dim=1)

    sample = model.tokenizer(["an example", "a second, longer example"], padding=True, return_tensors="pt")
    axes = {name: {0: "batch", 1: "tokens"} for name in _INPUTS}
    tmp = _temporary(target)
    with warnings.catch_warnings():
        # The tracer's notes on shapes concern other models; the export is checked by cosine in tests.
        warnings.simplefilter("ignore")
        torch.onnx.export(
            Pooled().eval(),
            tuple(sample[name] for name in _INPUTS),
            str(tmp),
            input_names=list(_INPUTS),
            output_names=["embedding"],
            dynamic_axes={**axes, "embedding": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
    os.replace(tmp, target)


def export_cross_encoder(directory: Path, target: Path) -> None:
    """A one-logit sequence classifier (bench/guard_pair_model.py's cross-encoder) as ONNX: inputs as
    the embedding model's, output `logit`, one per pair."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    model = AutoModelForSequenceClassification.from_pretrained(str(directory)).eval()
    tokenizer = AutoTokenizer.from_pretrained(str(directory))

    class Logit(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.model(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).logits.squeeze(-1)

    sample = tokenizer(
        ["an example", "a second one"],
        ["its pair", "a longer pair than the first"],
        padding=True,
        return_tensors="pt",
    )
    axes = {name: {0: "batch", 1: "tokens"} for name in _INPUTS}
    tmp = _temporary(target)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            Logit().eval(),
            tuple(sample[name] for name in _INPUTS),
            str(tmp),
            input_names=list(_INPUTS),
            output_names=["logit"],
            dynamic_axes={**axes, "logit": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
    os.replace(tmp, target)


def export_guard_model(models_dir: Path, directory: Path) -> Path:
    """The ONNX file of the guard-pair model in `directory` (GENEBANK_GUARD_MODEL_DIR), exported into
    `models_dir` unless it is there already."""
    from app.evolution.pair_model import guard_pair_spec

    spec = guard_pair_spec(directory)
    target = models_dir / spec.onnx_file
    if not target.exists():
        models_dir.mkdir(parents=True, exist_ok=True)
        export_cross_encoder(spec.directory, target)
    return target


def quantize_int8(fp32: Path, target: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    keep_fp32 = [
        node.name
        for node in onnx.load(str(fp32)).graph.node
        if node.op_type == "MatMul"
        and node.name.endswith("/output/dense/MatMul")
        and "attention" not in node.name
    ]
    tmp = _temporary(target)
    quantize_dynamic(
        str(fp32), str(tmp), per_channel=True, weight_type=QuantType.QInt8, nodes_to_exclude=keep_fp32
    )
    os.replace(tmp, target)


def export(models_dir: Path, *, int8: bool, model_dir: Path | None = None) -> list[Path]:
    """Export the model in `model_dir` (None: the stock one) into `models_dir`; the files it needs."""
    source = embedding_model(model_dir)
    models_dir.mkdir(parents=True, exist_ok=True)
    fp32 = models_dir / source.onnx_file(quantized=False)
    if not fp32.exists():
        export_fp32(fp32, source)
    if not int8:
        return [fp32]
    quantized = models_dir / source.onnx_file(quantized=True)
    if not quantized.exists():
        quantize_int8(fp32, quantized)
    return [fp32, quantized]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Export the embedding model to ONNX (once).")
    parser.add_argument("models_dir", type=Path)
    parser.add_argument("--int8", action="store_true", help="also write the int8 model")
    parser.add_argument("--model-dir", type=Path, help="a fine-tuned model (default: the stock one)")
    parser.add_argument("--cross-encoder", type=Path, help="export this guard-pair cross-encoder instead")
    args = parser.parse_args(argv)
    if args.cross_encoder is not None:
        export_guard_model(args.models_dir, args.cross_encoder)
        return
    export(args.models_dir, int8=args.int8, model_dir=args.model_dir)


if __name__ == "__main__":
    main()
