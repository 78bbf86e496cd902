"""The state of one batched generation: its prompts read, then one token per row per step.

:class:`~toolgym.agents.backends.hf.HFBackend` decodes through one of two states:

* :class:`LeanState`: the model's layers run by
  :class:`~toolgym.agents.backends.llama_decoder.LlamaDecoder` over a cache allocated once for
  the batch (Llama-architecture models);
* :class:`TransformersState`: ``transformers``' own forward pass over its ``DynamicCache`` (any
  causal LM).

Both read prompts the same two ways. One by one (the default on a CPU): each prompt alone, so the
causal fast path of attention runs without a padding mask, its rows then laid side by side,
left-padded. Batched (the default on a GPU, lean state only): the prompts' common leading tokens
once, then the rest of every prompt together in one padded forward pass. Either way a
:class:`PrefixCache` keeps the keys and values of recent prompts (or, batched, of the batch's
common prefix), and a prompt that starts with one of them reads only the rest.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

MIN_SHARED_PREFIX = 32
"""The fewest shared leading tokens for which a kept prompt cache is reused."""


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """The length of the longest common prefix of two token sequences (of one type)."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    low, high = 0, n  # a[:low] == b[:low], a[:high] != b[:high]
    while high - low > 1:
        middle = (low + high) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle
    return low


class PrefixCache:
    """Keys and values of recent token sequences, per layer ``[kv_heads, length, head_dim]``.

    Args:
        size: how many sequences are kept (least recently used first out; 0 keeps none).
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[tuple[int, ...], tuple[list[Any], list[Any]]] = OrderedDict()
        self.stats = {"prompt_tokens": 0, "reused_tokens": 0}
        """Tokens read by prefills, and how many of them came from this cache."""

    def clear(self) -> None:
        """Forget every kept sequence."""
        self.entries.clear()

    def find(self, ids: Sequence[int], at_most: int) -> tuple[tuple[int, ...] | None, int]:
        """The kept sequence sharing the longest prefix with ``ids`` (up to ``at_most``).

        Returns:
            ``(key, shared)``, or ``(None, 0)`` when none shares :data:`MIN_SHARED_PREFIX`.
        """
        ids = tuple(ids)
        best, shared = None, 0
        for key in self.entries:
            n = common_prefix(key, ids)
            if n > shared:
                best, shared = key, n
        shared = min(shared, at_most)
        if best is None or shared < MIN_SHARED_PREFIX:
            return None, 0
        self.entries.move_to_end(best)
        return best, shared

    def keep(self, ids: Sequence[int], keys: list[Any], values: list[Any]) -> None:
        """Keep copies of ``keys``/``values`` (per layer, ``[kv_heads, len(ids), head_dim]``)."""
        if not self.size:
            return
        self.entries[tuple(ids)] = ([k.clone() for k in keys], [v.clone() for v in values])
        self.entries.move_to_end(tuple(ids))
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)

    def count(self, read: int, reused: int) -> None:
        """Add one prefill's tokens to :attr:`stats`."""
        self.stats["prompt_tokens"] += read
        self.stats["reused_tokens"] += reused


class LeanState:
    """A batch decoded by a :class:`~toolgym.agents.backends.llama_decoder.LlamaDecoder`.

    Args:
        decoder: the model's lean decoder.
        prompts: each prompt's token ids (unpadded).
        new_tokens: the token budget (room is allocated for it).
        prefixes: the backend's prefix cache.
        batched: read the prompts in one padded pass after their common prefix (else one by one).
        pad_id: a token id written where a row has nothing (never attended to).
        compact: drop finished rows from the cache at once (default on a CPU, where every row
            costs its share); else only once a quarter of the rows are done (a GPU's batch costs
            about the same whatever its size, and each drop copies the cache).
    """

    def __init__(
        self,
        decoder: Any,
        prompts: list[list[int]],
        new_tokens: int,
        prefixes: PrefixCache,
        *,
        batched: bool,
        pad_id: int,
        compact: bool | None = None,
    ) -> None:
        import torch

        self.torch = torch
        self.compact = decoder.device.type == "cpu" if compact is None else compact
        self.decoder = decoder
        self.device = decoder.device
        self.pad_id = pad_id
        batch = len(prompts)
        if batched and batch > 1:
            shared = min(common_prefix(prompts[0], p) for p in prompts)
            shared = min(shared, min(len(p) for p in prompts) - 1)
            rest = max(len(p) for p in prompts) - shared
            self.cache = decoder.new_cache(batch, shared + rest + new_tokens)
            self.logits = self._read_batched(prompts, shared, rest, prefixes)
            self.end = shared + rest
        else:
            shared = min(common_prefix(prompts[0], p) for p in prompts) if batch > 1 else 0
            shared = min(shared, min(len(p) for p in prompts) - 1)
            shared = shared if shared >= MIN_SHARED_PREFIX else 0
            width = max(len(p) for p in prompts) - shared
            self.cache = decoder.new_cache(batch, width + new_tokens)
            if shared:  # read once, held once, attended to by every row
                self._read_prefix(prompts[0][:shared], prefixes)
            self.logits = torch.cat(
                [
                    self._read_one(row, p, width - (len(p) - shared), prefixes)
                    for row, p in enumerate(prompts)
                ]
            )
            self.end = width
        self.positions = torch.tensor([len(p) for p in prompts], device=self.device)
        self.active = torch.arange(batch, device=self.device)

    def _row(self, row: int) -> Any:
        from toolgym.agents.backends.llama_decoder import KVCache

        cache = self.cache
        return KVCache(
            [k[row : row + 1] for k in cache.keys],
            [v[row : row + 1] for v in cache.values],
            cache.valid[row : row + 1],
            cache.prefix_keys,
            cache.prefix_values,
        )

    def _copy_prefix(
        self,
        rows: Any,
        key: tuple[int, ...],
        shared: int,
        column: int,
        prefixes: PrefixCache,
        skip: int = 0,
    ) -> None:
        """A kept sequence's positions ``skip..shared`` into ``rows`` from ``column`` on."""
        keys, values = prefixes.entries[key]
        n = shared - skip
        for layer, (k, v) in enumerate(zip(keys, values, strict=True)):
            self.cache.keys[layer][rows, :, column : column + n] = k[:, skip:shared]
            self.cache.values[layer][rows, :, column : column + n] = v[:, skip:shared]
        self.cache.valid[rows, column : column + n] = True

    def _keep(self, ids: list[int], rows: int, column: int, prefixes: PrefixCache) -> None:
        n = len(ids) - self.cache.prefix
        keys = [k[rows, :, column : column + n] for k in self.cache.keys]
        values = [v[rows, :, column : column + n] for v in self.cache.values]
        if self.cache.prefix_keys is not None and self.cache.prefix_values is not None:
            cat = self.torch.cat
            keys = [cat([p, k], 1) for p, k in zip(self.cache.prefix_keys, keys, strict=True)]
            values = [cat([p, v], 1) for p, v in zip(self.cache.prefix_values, values, strict=True)]
        prefixes.keep(ids, keys, values)

    def _read_prefix(self, head: list[int], prefixes: PrefixCache) -> None:
        """Read the prompts' common prefix once into the cache's shared prefix."""
        torch = self.torch
        alone = self.decoder.new_cache(1, len(head))
        key, reused = prefixes.find(head, len(head))
        if key is not None:
            keys, values = prefixes.entries[key]
            for layer, (k, v) in enumerate(zip(keys, values, strict=True)):
                alone.keys[layer][0, :, :reused] = k[:, :reused]
                alone.values[layer][0, :, :reused] = v[:, :reused]
            alone.valid[0, :reused] = True
        if reused < len(head):
            ids = torch.tensor([head[reused:]], device=self.device)
            positions = torch.arange(reused, len(head), device=self.device)[None]
            self.decoder.forward(ids, positions, alone, reused)
        self.cache.prefix_keys = [k[0] for k in alone.keys]
        self.cache.prefix_values = [v[0] for v in alone.values]

    def _read_one(self, row: int, ids: list[int], column: int, prefixes: PrefixCache) -> Any:
        """Read one prompt into its row, right-aligned at ``column``; its last logits.

        With a shared prefix (``P`` positions), the row holds the prompt from position ``P``
        on, and a kept sequence longer than the prefix gives the row what it has beyond it.
        """
        torch = self.torch
        prefix = self.cache.prefix
        key, reused = prefixes.find(ids, len(ids) - 1)
        if key is not None and reused > prefix:
            self._copy_prefix(row, key, reused, column, prefixes, skip=prefix)
        reused = max(reused, prefix)
        rest = torch.tensor([ids[reused:]], device=self.device)
        positions = torch.arange(reused, len(ids), device=self.device)[None]
        logits = self.decoder.forward(
            rest, positions, self._row(row), column + reused - prefix, origin=column
        )
        prefixes.count(len(ids), reused)
        self._keep(ids, row, column, prefixes)
        return logits

    def _read_batched(
        self, prompts: list[list[int]], shared: int, rest: int, prefixes: PrefixCache
    ) -> Any:
        """The common prefix once (columns ``0..shared``), then every rest, left-padded."""
        torch = self.torch
        batch = len(prompts)
        reused = 0
        if shared:
            head = prompts[0][:shared]
            key, reused = prefixes.find(head, shared)
            if key is not None:
                self._copy_prefix(0, key, reused, 0, prefixes)
            if reused < shared:
                ids = torch.tensor([head[reused:]], device=self.device)
                positions = torch.arange(reused, shared, device=self.device)[None]
                self.decoder.forward(ids, positions, self._row(0), reused)
            for layer in range(len(self.cache.keys)):
                self.cache.keys[layer][1:, :, :shared] = self.cache.keys[layer][:1, :, :shared]
                self.cache.values[layer][1:, :, :shared] = self.cache.values[layer][:1, :, :shared]
            self.cache.valid[:, :shared] = True
            if shared >= MIN_SHARED_PREFIX:
                self._keep(head, 0, 0, prefixes)
        ids = torch.full((batch, rest), self.pad_id, dtype=torch.long)
        valid = torch.zeros((batch, rest), dtype=torch.bool)
        positions = torch.zeros((batch, rest), dtype=torch.long)
        for row, prompt in enumerate(prompts):
            tail = prompt[shared:]
            ids[row, rest - len(tail) :] = torch.tensor(tail)
            valid[row, rest - len(tail) :] = True
            positions[row, rest - len(tail) :] = torch.arange(shared, len(prompt))
            prefixes.count(len(prompt), reused)
        return self.decoder.forward(
            ids.to(self.device),
            positions.to(self.device),
            self.cache,
            shared,
            new_valid=valid.to(self.device),
        )

    def keep(self, rows: Sequence[int]) -> None:
        """Go on with these rows only (indices into the rows still decoding)."""
        index = self.torch.tensor(list(rows), device=self.device)
        self.active = self.active.index_select(0, index)
        if self.compact or len(self.active) <= 0.75 * self.cache.batch:
            self.cache = self.cache.select(self.active)
            self.positions = self.positions.index_select(0, self.active)
            self.active = self.torch.arange(len(self.active), device=self.device)

    def step(self, tokens: Any) -> Any:
        """Read one token per active row; the active rows' next logits."""
        torch = self.torch
        full = torch.full((self.cache.batch,), self.pad_id, dtype=torch.long, device=self.device)
        full[self.active] = tokens.to(self.device)
        logits = self.decoder.forward(full[:, None], self.positions[:, None], self.cache, self.end)
        self.end += 1
        self.positions = self.positions + 1
        return logits.index_select(0, self.active) if len(self.active) < len(full) else logits


class TransformersState:
    """A batch decoded by ``transformers``' forward pass over a ``DynamicCache``.

    Prompts are read one by one (each alone, then their caches stacked, left-padded); later steps
    pass the padding mask and positions explicitly.
    """

    def __init__(self, model: Any, prompts: list[list[int]], prefixes: PrefixCache) -> None:
        import torch
        from transformers import DynamicCache

        self.torch = torch
        self.model = model
        self.cache_class = DynamicCache
        self.device = next(model.parameters()).device
        self.cache_kw = _cache_keyword(model)
        width = max(len(p) for p in prompts)
        mask = torch.zeros((len(prompts), width), dtype=torch.long, device=self.device)
        for row, p in enumerate(prompts):
            mask[row, width - len(p) :] = 1
        self.mask = mask
        caches, last = [], []
        for ids in prompts:
            cache, reused = self._cached(ids, prefixes)
            rest = torch.tensor([ids[reused:]], device=self.device)
            out = model(input_ids=rest, use_cache=True, logits_to_keep=1, **{self.cache_kw: cache})
            prefixes.count(len(ids), reused)
            prefixes.keep(
                ids,
                [layer.keys[0, :, : len(ids)] for layer in cache.layers],
                [layer.values[0, :, : len(ids)] for layer in cache.layers],
            )
            caches.append(cache)
            last.append(out.logits[:, -1])
        self.logits = torch.cat(last).float()
        if len(caches) == 1:
            self.cache = caches[0]
            return
        stacked = DynamicCache(config=model.config)
        for layer in range(len(caches[0].layers)):
            keys, values = [], []
            for cache in caches:
                k, v = cache.layers[layer].keys, cache.layers[layer].values
                pad = width - k.shape[2]
                if pad:
                    k = torch.nn.functional.pad(k, (0, 0, pad, 0))
                    v = torch.nn.functional.pad(v, (0, 0, pad, 0))
                keys.append(k)
                values.append(v)
            stacked.update(torch.cat(keys), torch.cat(values), layer)
        self.cache = stacked

    def _cached(self, ids: list[int], prefixes: PrefixCache) -> tuple[Any, int]:
        """A new cache holding a kept prefix of ``ids`` (or nothing), and its length.

        The keys and values of a shared prefix are those a full read computes, since attention
        is causal; only floating-point rounding of the batched matrix products may differ.
        """
        cache = self.cache_class(config=self.model.config)
        key, shared = prefixes.find(ids, len(ids) - 1)
        if key is None:
            return cache, 0
        keys, values = prefixes.entries[key]
        for layer, (k, v) in enumerate(zip(keys, values, strict=True)):
            cache.update(k[None, :, :shared].clone(), v[None, :, :shared].clone(), layer)
        return cache, shared

    def keep(self, rows: Sequence[int]) -> None:
        """Go on with these rows only (indices into the rows still decoding)."""
        index = self.torch.tensor(list(rows), device=self.device)
        self.cache.batch_select_indices(index)
        self.mask = self.mask[index]

    def step(self, tokens: Any) -> Any:
        """Read one token per row; the rows' next logits."""
        mask = self.torch.cat([self.mask, self.mask.new_ones((self.mask.shape[0], 1))], dim=-1)
        self.mask = mask
        return (
            self.model(
                input_ids=tokens.to(self.device)[:, None],
                attention_mask=mask,
                position_ids=mask.sum(-1, keepdim=True) - 1,
                use_cache=True,
                **{self.cache_kw: self.cache},
            )
            .logits[:, -1]
            .float()
        )


def _cache_keyword(model: Any) -> str:
    """The forward pass's name for the cache (``cache`` from ``transformers`` 5.24 on)."""
    import inspect

    parameters = inspect.signature(model.forward).parameters
    return "cache" if "cache" in parameters else "past_key_values"
