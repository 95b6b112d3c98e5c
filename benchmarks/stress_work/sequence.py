"""Careful answers of the dynamic-programming, divide-and-conquer, string and greedy
scaffolds."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from .common import Renderer, answer_block, exact

__all__ = ["RENDERERS"]


def _row(values: Sequence[object]) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _edit_distance(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Both strings with positions, every row ``i=1 (k): [1, 1, 2]`` in full (the cell
    comparisons are optional), the distance, the answer."""
    a, b = test_input["a"], test_input["b"]
    lines = [
        "S = " + " ".join(f"{c}{i}" for i, c in enumerate(a, 1)) + f" (m = {len(a)})",
        "T = " + " ".join(f"{c}{j}" for j, c in enumerate(b, 1)) + f" (n = {len(b)})",
    ]
    above = list(range(len(b) + 1))
    lines.append(f"i=0 (-): {_row(above)}")
    for i, c in enumerate(a, 1):
        row = [i]
        for j, d in enumerate(b, 1):
            row.append(above[j - 1] if c == d else 1 + min(above[j], row[j - 1], above[j - 1]))
        lines.append(f"i={i} ({c}): {_row(row)}")
        above = row
    assert above[-1] == expected["distance"], "the rendered table disagrees with the reference"
    lines.append(f"distance = D[{len(a)}][{len(b)}] = {above[-1]}")
    return "\n".join(lines) + "\n" + answer_block(expected)


def _lcs(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Both strings with positions, every row ``i=2 (B): [0, 1, 1]``, one line per move of
    the backward walk, the answer."""
    a, b = test_input["a"], test_input["b"]
    lines = [
        "a = " + " ".join(f"{c}{i}" for i, c in enumerate(a, 1)) + f" (m = {len(a)})",
        "b = " + " ".join(f"{c}{j}" for j, c in enumerate(b, 1)) + f" (n = {len(b)})",
    ]
    table = [[0] * (len(b) + 1)]
    lines.append(f"i=0 (-): {_row(table[0])}")
    for i, c in enumerate(a, 1):
        row = [0]
        for j, d in enumerate(b, 1):
            row.append(table[i - 1][j - 1] + 1 if c == d else max(table[i - 1][j], row[j - 1]))
        table.append(row)
        lines.append(f"i={i} ({c}): {_row(row)}")
    i, j, taken = len(a), len(b), []
    while i > 0 and j > 0:
        if a[i - 1] == b[j - 1]:
            taken.append(a[i - 1])
            lines.append(
                f"({i},{j}): {a[i - 1]} = {b[j - 1]} -> take {a[i - 1]}, go to ({i - 1},{j - 1})"
            )
            i, j = i - 1, j - 1
        elif table[i - 1][j] >= table[i][j - 1]:
            up, left = table[i - 1][j], table[i][j - 1]
            lines.append(f"({i},{j}): {a[i - 1]} != {b[j - 1]}, up {up} >= left {left} -> up")
            i -= 1
        else:
            up, left = table[i - 1][j], table[i][j - 1]
            lines.append(f"({i},{j}): {a[i - 1]} != {b[j - 1]}, up {up} < left {left} -> left")
            j -= 1
    assert len(taken) == expected["length"], "the rendered table disagrees with the reference"
    lines.append(f"length = {len(taken)}, subsequence = {''.join(reversed(taken))}")
    return "\n".join(lines) + "\n" + answer_block(expected)


def _knapsack_01(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The items, ``R0``, per item its comparisons (``c=5: 3|7`` past 6 items, none past
    12) and its row in full, one line per item of the backward walk, the answer."""
    weights, values, capacity = test_input["weights"], test_input["values"], test_input["capacity"]
    n = len(weights)
    lines = [f"{i}: w={w}, v={v}" for i, (w, v) in enumerate(zip(weights, values, strict=True))]
    lines.append(f"C = {capacity}, n = {n}")
    rows = [[0] * (capacity + 1)]
    lines.append(f"R0: {_row(rows[0])}")
    compact = n > 6  # the scaffold's own shorthand past six items: `c=5: 3|7`
    rows_only = n > 12  # and past twelve, the rows alone
    for i, (w, v) in enumerate(zip(weights, values, strict=True)):
        above, row, said = rows[-1], [], []
        for c in range(capacity + 1):
            if c < w:
                row.append(above[c])
                continue
            take = above[c - w] + v
            row.append(max(above[c], take))
            said.append(
                f"c={c}: {above[c]}|{take}"
                if compact
                else f"c={c}: max({above[c]}, R{i}[{c - w}]+{v}={take}) = {row[-1]}"
            )
        rows.append(row)
        if not rows_only:
            lines.append(f"item {i} (w={w}, v={v}): " + "; ".join(said))
        lines.append(f"R{i + 1}: {_row(row)}")
    assert rows[-1][capacity] == expected["max_value"], "the rendered table disagrees"
    c = capacity
    for i in range(n, 0, -1):
        if rows[i][c] == rows[i - 1][c]:
            lines.append(f"i={i}: R{i}[{c}] = R{i - 1}[{c}] = {rows[i][c]} -> leave out {i - 1}")
        else:
            rest = c - weights[i - 1]
            lines.append(
                f"i={i}: R{i}[{c}] = {rows[i][c]} != {rows[i - 1][c]} -> take {i - 1}, c = {rest}"
            )
            c -= weights[i - 1]
    return "\n".join(lines) + "\n" + answer_block(expected)


def _lis(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The values with positions, one ``i=4 (5): smaller: 0 (L=1), ... -> L=3, P=2`` line
    per position, the walk, the answer."""
    s = test_input["sequence"]
    lines = [", ".join(f"{i}: {v}" for i, v in enumerate(s))]
    best: list[int] = []
    before: list[int | None] = []
    for i, v in enumerate(s):
        smaller = [j for j in range(i) if s[j] < v]
        length = 1 + max((best[j] for j in smaller), default=0)
        prev = next((j for j in smaller if best[j] == length - 1), None)
        best.append(length)
        before.append(prev)
        listed = ", ".join(f"{j} (L={best[j]})" for j in smaller) or "none"
        lines.append(f"i={i} ({v}): smaller: {listed} -> L={length}, P={prev}")
    length = max(best, default=0)
    assert length == expected["length"], "the rendered L disagrees with the reference"
    at: int | None = best.index(length) if s else None
    walk = []
    while at is not None:
        walk.append(f"{at} ({s[at]})")
        at = before[at]
    lines.append(f"length = {length}; walk: " + " -> ".join(walk))
    return "\n".join(lines) + "\n" + answer_block(expected)


def _matrix_chain(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The matrices, one ``m[i][j]`` line per sub-chain with every split (its total alone
    past 8 matrices), the answer."""
    d = test_input["dimensions"]
    n = len(d) - 1
    lines = [", ".join(f"A{i}: {d[i - 1]} x {d[i]}" for i in range(1, n + 1)) + f"; n = {n}"]
    cost = {(i, i): 0 for i in range(1, n + 1)}
    # A long chain may write a split as its total alone: past the standard maximum here.
    compact = n > 8
    for span in range(2, n + 1):
        for i in range(1, n - span + 2):
            j = i + span - 1
            splits = []
            for k in range(i, j):
                total = cost[i, k] + cost[k + 1, j] + d[i - 1] * d[k] * d[j]
                splits.append((total, k))
            best, split = min(splits)
            cost[i, j] = best
            said = "; ".join(
                f"k={k} {t}"
                if compact
                else f"k={k}: {cost[i, k]} + {cost[k + 1, j]} + {d[i - 1]}*{d[k]}*{d[j]} = {t}"
                for t, k in splits
            )
            lines.append(f"m[{i}][{j}]: {said} -> {best}, s={split}")
    assert cost[1, n] == expected["min_cost"], "the rendered table disagrees with the reference"
    return "\n".join(lines) + "\n" + answer_block(expected)


def _binary_search(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """One ``lo=0 hi=10 mid=5 array[5]=9 == 9 -> best=5, hi=4`` line per probe, the answer."""
    array, target = test_input["array"], test_input["target"]
    lo, hi, lines = 0, len(array) - 1, []
    while lo <= hi:
        mid = (lo + hi) // 2
        value = array[mid]
        sign = "<" if value < target else "==" if value == target else ">"
        step = f"lo={mid + 1}" if value < target else f"hi={mid - 1}"
        best = f"best={mid}, " if value == target else ""
        lines.append(
            f"lo={lo} hi={hi} mid={mid} array[{mid}]={value} {sign} {target} -> {best}{step}"
        )
        lo, hi = (mid + 1, hi) if value < target else (lo, mid - 1)
    assert len(lines) == len(expected["probes"]), "the rendered probes disagree"
    return "\n".join(lines) + "\n" + answer_block(expected)


def _merge_sort(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """One ``merge [5] + [2, 8] -> [2, 5, 8]: took 2 while 1 waited in L -> +1`` line per
    merge, the total, the answer."""
    lines: list[str] = []

    def sort(values: list[int]) -> tuple[list[int], int]:
        if len(values) <= 1:
            return values, 0
        left, a = sort(values[: len(values) // 2])
        right, b = sort(values[len(values) // 2 :])
        merged, count, i, j, said = [], 0, 0, 0, []
        while i < len(left) and j < len(right):
            if left[i] <= right[j]:
                merged.append(left[i])
                i += 1
            else:
                merged.append(right[j])
                count += len(left) - i
                said.append(f"took {right[j]} while {len(left) - i} waited in L")
                j += 1
        merged += left[i:] + right[j:]
        lines.append(
            f"merge {_row(left)} + {_row(right)} -> {_row(merged)}: {', '.join(said)} -> +{count}"
        )
        return merged, a + b + count

    _, total = sort(list(test_input["array"]))
    assert total == expected["inversions"], "the rendered merges disagree with the reference"
    lines.append(f"total = {total}")
    return "\n".join(lines) + "\n" + answer_block(expected)


def _quickselect(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """One ``P (7 values), k=5, pivot P[3]=3: S=[1] E=[3, 3] G=[...] -> ...`` line per
    round, the answer."""
    part, k, lines = list(test_input["array"]), test_input["k"], []
    while True:
        pivot = part[len(part) // 2]
        smaller = [v for v in part if v < pivot]
        equal = [v for v in part if v == pivot]
        larger = [v for v in part if v > pivot]
        lists = f"S={_row(smaller)} E={_row(equal)} G={_row(larger)}"
        head = f"P ({len(part)} values), k={k}, pivot P[{len(part) // 2}]={pivot}: {lists}"
        if k <= len(smaller):
            lines.append(f"{head} -> go left")
            part = smaller
        elif k <= len(smaller) + len(equal):
            lines.append(f"{head} -> the pivot")
            break
        else:
            k -= len(smaller) + len(equal)
            lines.append(f"{head} -> go right, k={k}")
            part = larger
    assert pivot == expected["value"], "the rendered rounds disagree with the reference"
    return "\n".join(lines) + "\n" + answer_block(expected)


def _kmp(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The failure table, one line per text index (a run of idle ``j = 0`` indices shares
    one), the answer."""
    text, pattern = test_input["text"], test_input["pattern"]
    m = len(pattern)
    fail, k = [0] * m, 0
    for q in range(1, m):
        while k > 0 and pattern[q] != pattern[k]:
            k = fail[k - 1]
        k += pattern[q] == pattern[k]
        fail[q] = k
    lines = [f"q={q} {c} fail={fail[q]}" for q, c in enumerate(pattern)]
    j, found, idle = 0, [], 0
    for i, c in enumerate(text):
        said = []
        while j > 0 and c != pattern[j]:
            said.append(f"j {j} -> {fail[j - 1]}")
            j = fail[j - 1]
        if c == pattern[j]:
            j += 1
            said.append(f"{c} = pattern[{j - 1}], j={j}")
        if j == m:
            found.append(i - m + 1)
            said.append(f"MATCH at {i - m + 1}, j=fail[{m - 1}]={fail[m - 1]}")
            j = fail[m - 1]
        if said:
            if idle:
                lines.append(f"i={i - idle}..{i - 1}: no match, j=0")
                idle = 0
            lines.append(f"i={i} {c}: " + "; ".join(said))
        else:
            idle += 1
    assert found == expected["positions"], "the rendered scan disagrees with the reference"
    return "\n".join(lines) + "\n" + answer_block(expected)


def _rabin_karp(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The letters' ``r(c)`` and ``high``, the pattern hash, one
    ``s | window | remove/add | t_s | = hp? | letters equal?`` line per window, the answer."""
    text, pattern, b, q = (
        test_input["text"],
        test_input["pattern"],
        test_input["base"],
        test_input["modulus"],
    )
    m, n = len(pattern), len(text)
    letters = sorted(set(text + pattern))
    high = pow(b, m - 1, q)
    lines = [", ".join(f"r({c}) = {ord(c) % q}" for c in letters) + f"; high = {high}"]

    def horner(word: str) -> int:
        h = 0
        for c in word:
            h = (h * b + ord(c) % q) % q
        return h

    hp = horner(pattern)
    lines.append(f"hp = {hp}")
    t, hits = horner(text[:m]), []
    for s in range(n - m + 1):
        if s:
            y = ord(text[s - 1]) % q * high % q
            x = t - y + (q if t < y else 0)
            t = (x * b + ord(text[s + m - 1]) % q) % q
            how = f"{text[s - 1]} out y={y} x={x}, {text[s + m - 1]} in"
        else:
            how = "Horner"
        window = text[s : s + m]
        same = "" if t != hp else (" | letters equal" if window == pattern else " | letters differ")
        lines.append(f"{s} | {window} | {how} | {t} | {'= hp' if t == hp else '!= hp'}{same}")
        hits += [s] if t == hp else []
    assert sorted(expected["positions"] + expected["spurious_hits"]) == hits, "hashes disagree"
    return "\n".join(lines) + "\n" + answer_block(expected)


def _trie(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """One ``i | operation | word | walk | result | nodes`` row per operation, the answer."""
    nodes: dict[str, int] = {}
    words: set[str] = set()
    lines = []
    for i, (operation, word) in enumerate(test_input["operations"]):
        prefixes = [word[: k + 1] for k in range(len(word))]
        found = [p for p in prefixes if p in nodes]
        if operation == "insert":
            result: object = word not in words
            if word not in words:
                words.add(word)
                for p in prefixes:
                    nodes[p] = nodes.get(p, 0) + 1
            made = len(prefixes) - len(found) if result else 0
            walk = f"found {', '.join(found) or '-'}; created {made}"
        else:
            walk = f"found {', '.join(found) or '-'}"
            result = {
                "search": word in words,
                "starts_with": word in nodes,
                "count_prefix": nodes.get(word, 0),
            }[operation]
        lines.append(f"{i} | {operation} | {word} | {walk} | {result} | {len(nodes)}")
    assert len(nodes) == expected["node_count"], "the rendered trie disagrees with the reference"
    return "\n".join(lines) + "\n" + answer_block(expected)


def _activity_selection(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The activities sorted by finish, one ``label [start, finish]`` line each, one
    ``D [5, 7]: 5 >= 4 -> take, free from 7`` line per activity scanned, the check (the
    chosen activities with their times), the answer."""
    listed = list(enumerate(test_input["activities"]))
    ordered = [a for _, a in sorted(listed, key=lambda p: (p[1][2], p[0]))]
    lines = [f"{label} [{start}, {finish}]" for label, start, finish in ordered]
    free, chosen = None, []
    for label, start, finish in ordered:
        if free is None or start >= free:
            lines.append(
                f"{label} [{start}, {finish}]: {start} >= {free} -> take, free from {finish}"
            )
            free = finish
            chosen.append((label, start, finish))
        else:
            lines.append(f"{label} [{start}, {finish}]: {start} < {free} -> skip")
    assert len(chosen) == expected["count"], "the rendered scan disagrees with the reference"
    check = ", ".join(f"{label} [{start}, {finish}]" for label, start, finish in chosen)
    lines.append(f"Check: {check}; count {len(chosen)}")
    return "\n".join(lines) + "\n" + answer_block(expected)


def _fractional_knapsack(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The ``i | weight | value | ratio`` table, the sorted order, one ``item 2 (w 20): 20 >
    6 -> fraction 6/20 = 0.3, +11.4, total 79.4, room 0`` line per item, the two sums of
    the check, the answer."""
    weights, values = test_input["weights"], test_input["values"]
    ratios = [Fraction(v, w) for w, v in zip(weights, values, strict=True)]
    lines = ["i | weight | value | ratio"]
    lines += [
        f"{i} | {w} | {v} | {exact(r)[:8]}"
        for i, (w, v, r) in enumerate(zip(weights, values, ratios, strict=True))
    ]
    order = sorted(range(len(weights)), key=lambda i: (-ratios[i], i))
    lines.append("order: " + ", ".join(str(i) for i in order))
    room, total = Fraction(test_input["capacity"]), Fraction(0)
    for i in order:
        if room == 0:
            lines.append(f"item {i}: room 0 -> fraction 0")
            continue
        share = min(Fraction(1), room / weights[i])
        total += share * values[i]
        room -= share * weights[i]
        lines.append(
            f"item {i} (w {weights[i]}): fraction {exact(share)}, +{exact(share * values[i])},"
            f" total {exact(total)}, room {exact(room)}"
        )
    assert abs(float(total) - expected["max_value"]) < 1e-6, "the rendered fill disagrees"
    shares = " + ".join(f"{w}*{f}" for w, f in zip(weights, expected["fractions"], strict=True))
    worth = " + ".join(f"{v}*{f}" for v, f in zip(values, expected["fractions"], strict=True))
    lines += [f"weights: {shares}", f"values: {worth} = {exact(total)}"]
    return "\n".join(lines) + "\n" + answer_block(expected)


def _huffman(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The pool, one ``#2 = D:3 (0) + A:4 (1) = 7. Pool: E:9 #1:4 #2:7`` line per round,
    one ``#3 = 1 -> #1 = 10, #2 = 11`` line per node from the root, the sum of the bits and
    the ``#`` weights, the answer."""
    table = test_input["frequencies"]
    pool = [(w, age, name) for age, (name, w) in enumerate(table.items())]
    lines = ["Pool: " + " ".join(f"{n}:{w}" for w, _, n in pool)]
    children: dict[str, tuple[str, str]] = {}
    made = 0
    while len(pool) > 1:
        pool.sort()
        (w0, _, n0), (w1, _, n1), pool = pool[0], pool[1], pool[2:]
        made += 1
        name = f"#{made}"
        children[name] = (n0, n1)
        pool.append((w0 + w1, len(table) + made, name))
        shown = " ".join(f"{n}:{w}" for w, _, n in sorted(pool, key=lambda p: p[1]))
        lines.append(f"{name} = {n0}:{w0} (0) + {n1}:{w1} (1) = {w0 + w1}. Pool: {shown}")
    codes = {pool[0][2]: ""} if pool else {}
    for number in range(made, 0, -1):
        name = f"#{number}"
        left, right = children[name]
        codes[left], codes[right] = codes[name] + "0", codes[name] + "1"
        below = f"{left} = {codes[left]}, {right} = {codes[right]}"
        lines.append(f"{name} = {codes[name] or '(empty)'} -> {below}")
    bits = sum(table[s] * len(codes[s] or "0") for s in table)
    assert bits == expected["total_bits"], "the rendered tree disagrees with the reference"
    lines.append(
        "total_bits = "
        + " + ".join(f"{table[s]} x {len(codes[s] or '0')}" for s in table)
        + f" = {bits}"
    )
    return "\n".join(lines) + "\n" + answer_block(expected)


RENDERERS: dict[str, Renderer] = {
    "activity_selection": _activity_selection,
    "binary_search": _binary_search,
    "edit_distance": _edit_distance,
    "fractional_knapsack": _fractional_knapsack,
    "huffman": _huffman,
    "kmp": _kmp,
    "knapsack_01": _knapsack_01,
    "lcs": _lcs,
    "lis": _lis,
    "matrix_chain": _matrix_chain,
    "merge_sort": _merge_sort,
    "quickselect": _quickselect,
    "rabin_karp": _rabin_karp,
    "trie": _trie,
}
