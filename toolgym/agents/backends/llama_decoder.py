"""A lean forward pass of Llama-architecture models over a preallocated key/value cache.

``transformers``' own forward pass costs about 16 ms a token in Python and cache bookkeeping for
a 30-layer model on one CPU core (measured with a 64-wide model of the same depth), and its
``DynamicCache`` copies the whole cache at every token (``torch.cat``): more than the weights of
a 135M model are read. :class:`LlamaDecoder` runs the same layers with the model's own weights and
its own rotary embedding, writing keys and values in place into a :class:`KVCache` allocated once
for a batch, with the query, key and value projections fused into one matrix product and the gate
and up projections into another.

Weights (``weights=``):

* ``"model"``: the model's tensors as they are (float32 on the CPU by default);
* ``"int4"``: each projection (and, with ``int4_head``, the output head) as 4-bit integers in groups of 32 with a scale
  and an offset per group, multiplied by PyTorch's own CPU kernel
  (``torch.ops.aten._weight_int4pack_mm_for_cpu``, bfloat16 activations). A GGUF ``Q4_1`` model
  (the embedded one) is exactly such a grid, so its 4-bit codes come back unchanged; only the
  bfloat16 rounding of the scales, offsets and activations differs from a float32 run
  (``toolgym bench --llm`` reports the greedy agreement). Four times less memory than float32 is
  read per token.

Architectures: ``LlamaForCausalLM`` and the models that share its layers without extras
(``Qwen2ForCausalLM``, whose projections have biases, and ``MistralForCausalLM`` without a
sliding window shorter than its context). :func:`supports` says whether a model qualifies;
others keep ``transformers``' forward pass.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ARCHITECTURES = ("LlamaForCausalLM", "Qwen2ForCausalLM", "MistralForCausalLM")
"""Model classes whose layers :class:`LlamaDecoder` runs."""
WEIGHT_FORMATS = ("model", "int4")
"""How :class:`LlamaDecoder` holds the projections' weights."""
INT4_GROUP = 32
"""Weights per scale and offset in the 4-bit format (GGUF ``Q4_1``'s block)."""
INT4_MAX_ROWS = 16
"""The most rows (tokens times batch) a 4-bit product takes; more read the float weights."""


def supports(model: Any) -> str | None:
    """``None`` when :class:`LlamaDecoder` can run ``model``, else why not (one line)."""
    name = type(model).__name__
    if name not in ARCHITECTURES:
        return f"{name} is not one of {', '.join(ARCHITECTURES)}"
    config = model.config
    if getattr(config, "hidden_act", "silu") != "silu":
        return f"the activation is {config.hidden_act!r}, not 'silu'"
    window = getattr(config, "sliding_window", None) or 0
    sliding = getattr(config, "use_sliding_window", True) is not False
    if sliding and 0 < window < getattr(config, "max_position_embeddings", 0):
        return f"a sliding window of {window} tokens"
    layer = model.model.layers[0]
    if hasattr(layer.self_attn, "q_norm"):
        return "query/key norms (Qwen3-style)"
    if getattr(layer.mlp, "down_proj", None) is None:
        return "an MLP without gate/up/down projections"
    return None


@dataclass
class KVCache:
    """Keys and values of a batch, preallocated: ``[layers][batch, kv_heads, length, head_dim]``.

    Attributes:
        keys: per layer, the keys (written in place).
        values: per layer, the values.
        valid: ``[batch, length]`` booleans, where a row holds a real token (not padding).
        prefix_keys: per layer, ``[kv_heads, P, head_dim]``: the keys of a prefix every row
            shares (positions ``0..P``), held once and attended to by every row before its own
            columns; ``None``: no shared prefix.
        prefix_values: the shared prefix's values, likewise.
    """

    keys: list[Any]
    values: list[Any]
    valid: Any
    prefix_keys: list[Any] | None = None
    prefix_values: list[Any] | None = None

    @property
    def prefix(self) -> int:
        """Positions in the shared prefix (0: none)."""
        return 0 if self.prefix_keys is None else int(self.prefix_keys[0].shape[1])

    @property
    def batch(self) -> int:
        """Rows in the cache."""
        return int(self.valid.shape[0])

    @property
    def length(self) -> int:
        """Positions each row has room for."""
        return int(self.valid.shape[1])

    def select(self, rows: Any) -> KVCache:
        """A cache of the given rows only (a tensor of row indices; copies)."""
        return KVCache(
            [k.index_select(0, rows) for k in self.keys],
            [v.index_select(0, rows) for v in self.values],
            self.valid.index_select(0, rows),
            self.prefix_keys,
            self.prefix_values,
        )


class _Int4Linear:
    """A projection as 4-bit codes for PyTorch's CPU kernel, with each group's offset exact.

    Each group of :data:`INT4_GROUP` weights is ``low + code * step`` (``code`` in 0..15), which
    is GGUF ``Q4_1``'s block exactly. The kernel multiplies ``code * step`` (``step`` rounded to
    bfloat16, activations too); the offsets, whose bfloat16 rounding would shift every weight of
    a group, are added in float32 as ``low @ group_sums(x)``, a product 32 times smaller.
    """

    def __init__(self, weight: Any, bias: Any) -> None:
        import torch

        out_features, in_features = weight.shape
        groups = weight.detach().float().reshape(out_features, in_features // INT4_GROUP, -1)
        low = groups.amin(-1, keepdim=True)
        step = (groups.amax(-1, keepdim=True) - low) / 15
        step = torch.where(step > 0, step, torch.ones_like(step))
        codes = torch.clamp(torch.round((groups - low) / step), 0, 15).to(torch.int32)
        self.packed = torch.ops.aten._convert_weight_to_int4pack_for_cpu(
            codes.reshape(out_features, in_features), 1
        )
        scale = step.squeeze(-1).to(torch.bfloat16)
        # the kernel computes (code - 8) * scale + zero: with zero = 8 * scale, code * scale
        self.scales = torch.stack([scale, 8 * scale], -1).transpose(0, 1).contiguous()
        self.low = low.squeeze(-1).contiguous()  # [out, groups], float32
        self.bias = None if bias is None else bias.detach().float()
        self.out_features = out_features

    def __call__(self, x: Any) -> Any:
        """``x @ W.T (+ bias)`` in float32 (the codes' product in the kernel's bfloat16)."""
        import torch

        flat = x.reshape(-1, x.shape[-1])
        y = torch.ops.aten._weight_int4pack_mm_for_cpu(
            flat.to(torch.bfloat16), self.packed, INT4_GROUP, self.scales
        ).float()
        sums = flat.float().reshape(flat.shape[0], -1, INT4_GROUP).sum(-1)
        y = (
            torch.addmm(y, sums, self.low.T)
            if self.bias is None
            else y + sums @ self.low.T + self.bias
        )
        return y.reshape(*x.shape[:-1], self.out_features)


class _Linear:
    """A projection with the model's own weights (several fused along the output)."""

    def __init__(self, weight: Any, bias: Any) -> None:
        self.weight = weight.detach()
        self.bias = None if bias is None else bias.detach()

    def __call__(self, x: Any) -> Any:
        import torch

        return torch.nn.functional.linear(x, self.weight, self.bias)


class _Int4Decode:
    """4-bit weights for decoding (a few rows), the model's own for reading prompts.

    The 4-bit kernel is built for one row at a time; a prompt of hundreds of tokens is a matrix
    product, which the model's own float weights do far faster.
    """

    def __init__(self, plain: _Linear) -> None:
        self.plain = plain
        self.int4 = _Int4Linear(plain.weight, plain.bias)

    def __call__(self, x: Any) -> Any:
        rows = x.numel() // x.shape[-1]
        return self.int4(x) if rows <= INT4_MAX_ROWS else self.plain(x)


def _fused(modules: list[Any], weights: str) -> Any:
    """One projection computing ``modules`` side by side (their outputs concatenated).

    The modules' parameters become views of the fused tensor, so the weights are held once and
    updates made in place (a merged adapter) are seen by both. ``int4`` adds a 4-bit copy for
    decoding (an eighth of the float32 size), made when the decoder is built.
    """
    import torch

    biases = [m.bias for m in modules]
    if len(modules) == 1:
        weight, bias = modules[0].weight.detach(), biases[0]
        bias = None if bias is None else bias.detach()
    else:
        weight = torch.cat([m.weight.detach() for m in modules])
        bias = None
        if any(b is not None for b in biases):
            bias = torch.cat(
                [
                    m.bias.detach() if m.bias is not None else weight.new_zeros(m.weight.shape[0])
                    for m in modules
                ]
            )
        # the modules' parameters become views of the fused weight: held once
        offset = 0
        for m in modules:
            rows = m.weight.shape[0]
            m.weight.data = weight[offset : offset + rows]
            if bias is not None and m.bias is not None:
                m.bias.data = bias[offset : offset + rows]
            offset += rows
    plain = _Linear(weight, bias)
    return _Int4Decode(plain) if weights == "int4" else plain


class LlamaDecoder:
    """The layers of a Llama-architecture model, run over a :class:`KVCache`.

    Args:
        model: a loaded ``LlamaForCausalLM``-like model (see :func:`supports`), already on its
            device and in its dtype; adapters merged.
        weights: ``"model"`` or ``"int4"`` (CPU only; see the module's docs).
        int4_head: with ``int4`` weights, the output head (tied to the embeddings in small
            models) in int4 too. Off by default: the head decides the greedy token, and in 4
            bits it changed about half of the embedded model's actions, against a quarter with
            the head kept in its own dtype.

    Raises:
        ValueError: an unsupported model or weight format, or ``int4`` off the CPU.
    """

    def __init__(self, model: Any, weights: str = "model", *, int4_head: bool = False) -> None:
        import torch

        why = supports(model)
        if why is not None:
            raise ValueError(f"LlamaDecoder cannot run this model: {why}")
        if weights not in WEIGHT_FORMATS:
            raise ValueError(f"weights must be one of {WEIGHT_FORMATS}; got {weights!r}")
        self.device = model.lm_head.weight.device
        if weights == "int4" and self.device.type != "cpu":
            raise ValueError(
                f"int4 weights run on the CPU kernel only; the model is on {self.device}"
            )
        config = model.config
        self.model = model
        self.weights = weights
        self.heads = int(config.num_attention_heads)
        self.kv_heads = int(getattr(config, "num_key_value_heads", None) or self.heads)
        self.head_dim = int(
            getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
        )
        self.dtype = model.lm_head.weight.dtype
        self.layers = []
        self._projections = self._current_projections(model)
        for layer in model.model.layers:
            attention, mlp = layer.self_attn, layer.mlp
            self.layers.append(
                (
                    layer.input_layernorm,
                    _fused([attention.q_proj, attention.k_proj, attention.v_proj], weights),
                    _fused([attention.o_proj], weights),
                    layer.post_attention_layernorm,
                    _fused([mlp.gate_proj, mlp.up_proj], weights),
                    _fused([mlp.down_proj], weights),
                )
            )
        self.embed = model.model.embed_tokens
        self.norm = model.model.norm
        self.rotary = model.model.rotary_emb
        self.head = _fused([model.lm_head], weights if int4_head else "model")
        self.scale = float(getattr(model.model.layers[0].self_attn, "scaling", self.head_dim**-0.5))
        self._torch = torch

    @staticmethod
    def _current_projections(model: Any) -> list[Any]:
        modules = [model.lm_head]
        for layer in model.model.layers:
            attention, mlp = layer.self_attn, layer.mlp
            modules += [attention.q_proj, attention.k_proj, attention.v_proj, attention.o_proj]
            modules += [mlp.gate_proj, mlp.up_proj, mlp.down_proj]
        return modules

    def is_current(self) -> bool:
        """Whether the model still has the projections this decoder was built from.

        An adapter injected afterwards (``peft`` wraps each projection) is not in the fused
        weights: the caller must build a new decoder, or run ``transformers``' forward pass.
        """
        try:
            now = self._current_projections(self.model)
        except AttributeError:
            return False
        return len(now) == len(self._projections) and all(
            a is b for a, b in zip(now, self._projections, strict=True)
        )

    def new_cache(self, batch: int, length: int) -> KVCache:
        """An empty cache for ``batch`` rows of ``length`` positions each."""
        torch = self._torch
        shape = (batch, self.kv_heads, length, self.head_dim)
        return KVCache(
            [torch.zeros(shape, dtype=self.dtype, device=self.device) for _ in self.layers],
            [torch.zeros(shape, dtype=self.dtype, device=self.device) for _ in self.layers],
            torch.zeros((batch, length), dtype=torch.bool, device=self.device),
        )

    def forward(
        self,
        ids: Any,
        positions: Any,
        cache: KVCache,
        start: int,
        new_valid: Any | None = None,
        origin: int = 0,
    ) -> Any:
        """Read ``ids`` into ``cache`` at columns ``start..start+T``; the last column's logits.

        Args:
            ids: ``[batch, T]`` token ids (padding anywhere, marked by ``new_valid``).
            positions: ``[batch, T]`` the tokens' positions in their sequences (RoPE).
            cache: the batch's cache; its ``valid`` columns before ``start`` say what each row
                attends to.
            start: the first column written.
            new_valid: ``[batch, T]`` whether each new token is real (default: all, and then,
                when also ``start == origin``, attention takes the causal fast path, no mask).
            origin: no row attends to a column before it (the columns before are padding).

        Returns:
            ``[batch, vocab]`` float logits of each row's last column.
        """
        torch = self._torch
        functional = torch.nn.functional
        batch, count = ids.shape
        end = start + count
        if end > cache.length:
            raise ValueError(f"the cache holds {cache.length} positions; writing up to {end}")
        prefix = cache.prefix
        causal_only = new_valid is None and start == origin and count > 1 and not prefix
        # one prompt read after keys it continues (a kept prefix, the shared one): as long as
        # they are fewer than its tokens, blank queries put before it let the fused causal
        # kernel run, which beats a masked product over every pair
        lead = prefix + start - origin
        padded = (
            new_valid is None
            and batch == 1
            and 0 < lead < count
            and bool(cache.valid[:, origin:start].all())
        )
        if new_valid is None:
            new_valid = torch.ones_like(ids, dtype=torch.bool)
        cache.valid[:, start:end] = new_valid
        hidden = self.embed(ids)
        cos, sin = self.rotary(hidden, positions)
        cos, sin = cos[:, None], sin[:, None]  # [batch, 1, T, head_dim]
        keys_seen = cache.valid[:, origin:end]
        mask = keys_seen[:, None, None, :]
        if count > 1 and not causal_only and not padded:
            columns = end - origin
            causal = torch.ones((count, columns), dtype=torch.bool, device=ids.device)
            mask = mask & causal.tril(start - origin)[None, None]
            # a padded query row attends to nothing else; let it see itself (its output is unused)
            own = torch.zeros((count, columns), dtype=torch.bool, device=ids.device)
            own[torch.arange(count), torch.arange(start - origin, end - origin)] = True
            mask = mask | own[None, None]
        if prefix and count > 1 and not padded:  # the shared prefix is seen by every new token
            mask = mask.expand(batch, 1, count, end - origin)
            seen = torch.ones((batch, 1, count, prefix), dtype=torch.bool, device=ids.device)
            mask = torch.cat([seen, mask], -1)
        groups = self.heads // self.kv_heads
        half = self.head_dim // 2
        for index, (norm1, qkv, out, norm2, gate_up, down) in enumerate(self.layers):
            x = norm1(hidden)
            q, k, v = qkv(x).split(
                [
                    self.heads * self.head_dim,
                    self.kv_heads * self.head_dim,
                    self.kv_heads * self.head_dim,
                ],
                dim=-1,
            )
            q = q.view(batch, count, self.heads, self.head_dim).transpose(1, 2)
            k = k.view(batch, count, self.kv_heads, self.head_dim).transpose(1, 2)
            v = v.view(batch, count, self.kv_heads, self.head_dim).transpose(1, 2)
            q = q * cos + torch.cat((-q[..., half:], q[..., :half]), -1) * sin
            k = k * cos + torch.cat((-k[..., half:], k[..., :half]), -1) * sin
            cache.keys[index][:, :, start:end] = k
            cache.values[index][:, :, start:end] = v
            keys = cache.keys[index][:, :, origin:end]
            values = cache.values[index][:, :, origin:end]
            if count == 1:
                # one query row: the query heads of a key/value head side by side, and plain
                # products, which beat the fused kernel's set-up
                grouped = q.reshape(batch, self.kv_heads, groups, self.head_dim)
                scores = torch.matmul(grouped, keys.transpose(-1, -2)) * self.scale
                scores = scores.masked_fill(~mask, float("-inf"))
                if prefix:
                    attended = self._with_prefix(cache, index, grouped, scores, values)
                else:
                    attended = torch.matmul(scores.softmax(-1), values)
            elif prefix or padded:
                if prefix:
                    assert cache.prefix_keys is not None and cache.prefix_values is not None
                    shape = (batch, self.kv_heads, prefix, self.head_dim)
                    keys = torch.cat([cache.prefix_keys[index][None].expand(shape), keys], 2)
                    values = torch.cat([cache.prefix_values[index][None].expand(shape), values], 2)
                if padded:
                    blank = q.new_zeros((batch, self.heads, lead, self.head_dim))
                    attended = functional.scaled_dot_product_attention(
                        torch.cat([blank, q], 2),
                        keys,
                        values,
                        is_causal=True,
                        scale=self.scale,
                        enable_gqa=groups > 1,
                    )[:, :, lead:]
                else:
                    attended = functional.scaled_dot_product_attention(
                        q, keys, values, attn_mask=mask, scale=self.scale, enable_gqa=groups > 1
                    )
            elif causal_only:
                attended = functional.scaled_dot_product_attention(
                    q, keys, values, is_causal=True, scale=self.scale, enable_gqa=groups > 1
                )
            else:
                attended = functional.scaled_dot_product_attention(
                    q, keys, values, attn_mask=mask, scale=self.scale, enable_gqa=groups > 1
                )
            attended = attended.reshape(batch, self.heads, count, self.head_dim).transpose(1, 2)
            hidden = hidden + out(attended.reshape(batch, count, self.heads * self.head_dim))
            x = norm2(hidden)
            gate, up = gate_up(x).chunk(2, dim=-1)
            hidden = hidden + down(functional.silu(gate) * up)
        last = self.norm(hidden[:, -1])
        return self.head(last).float()

    def _with_prefix(
        self, cache: KVCache, index: int, grouped: Any, scores: Any, values: Any
    ) -> Any:
        """One query row per sequence over the shared prefix (read once) and its own columns.

        ``grouped``: ``[batch, kv_heads, groups, head_dim]`` queries; ``scores``: their masked
        scores over the rows' own columns. The prefix's keys and values are read once for the
        whole batch instead of once per row: the batch's query heads side by side.
        """
        torch = self._torch
        assert cache.prefix_keys is not None and cache.prefix_values is not None
        batch, kv_heads, groups, head_dim = grouped.shape
        prefix = cache.prefix
        side = grouped.transpose(0, 1).reshape(kv_heads, batch * groups, head_dim)
        shared = torch.matmul(side, cache.prefix_keys[index].transpose(-1, -2)) * self.scale
        shared = shared.reshape(kv_heads, batch, groups, prefix).transpose(0, 1)
        probs = torch.cat([shared, scores], -1).softmax(-1)
        on_prefix, on_own = probs.split([prefix, scores.shape[-1]], -1)
        side = on_prefix.transpose(0, 1).reshape(kv_heads, batch * groups, prefix)
        from_prefix = torch.matmul(side, cache.prefix_values[index])
        from_prefix = from_prefix.reshape(kv_heads, batch, groups, head_dim).transpose(0, 1)
        return torch.matmul(on_own, values) + from_prefix
