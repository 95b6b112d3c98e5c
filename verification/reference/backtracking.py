"""Reference backtracking searches: n-queens, sudoku, graph colouring, subset sum.

Each takes the plain JSON data a test case holds (a board side, a grid of digits, string
vertex labels and edge lists, a list of integers) and returns the answer's exact JSON shape;
"no solution" is ``None`` beside a ``False`` flag. Every search is depth-first with a fixed
order of choices, so the answer is deterministic; where several answers are right the
validators accept any of them. Pure Python: importing this module loads no numpy or networkx.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from verification.reference._inputs import is_int, vertex_labels

__all__ = ["graph_coloring", "n_queens", "solve_sudoku", "subset_sum"]


def n_queens(n: int, placed: Sequence[Sequence[int]] | None = None) -> dict[str, Any]:
    """Every way to place ``n`` non-attacking queens on an ``n`` x ``n`` board, keeping the
    queens already ``placed``.

    Parameters
    ----------
    n : int
        The board side and the number of queens, at least 1.
    placed : sequence of [row, column] pairs, optional
        Queens already on the board (0-based, at most one per row), which every solution
        keeps. Default: none, so every solution of the empty board is asked for.

    Returns
    -------
    dict
        ``{"solutions": [[c0, c1, ...], ...], "count": int}``: each solution lists, row by
        row (row 0 first), the 0-based column of that row's queen; the solutions come in
        ascending lexicographic order (the order the search finds them); ``count`` is how
        many there are. No solution (``n`` = 2 or 3, or placed queens that attack each
        other or leave no room) is ``{"solutions": [], "count": 0}``.

    Raises
    ------
    ValueError
        If ``n`` is not an integer of at least 1, or a placed queen is off the board or
        shares its row with another.

    Examples
    --------
    >>> n_queens(4)
    {'solutions': [[1, 3, 0, 2], [2, 0, 3, 1]], 'count': 2}
    >>> n_queens(1)
    {'solutions': [[0]], 'count': 1}
    >>> n_queens(3)
    {'solutions': [], 'count': 0}
    >>> n_queens(6)["count"], n_queens(8)["count"]
    (4, 92)
    >>> n_queens(6, placed=[[0, 1]])
    {'solutions': [[1, 3, 5, 0, 2, 4]], 'count': 1}
    >>> n_queens(4, placed=[[0, 0]])
    {'solutions': [], 'count': 0}

    Notes
    -----
    Row-by-row backtracking: in row ``r`` try the columns ``0..n-1`` in ascending order
    (only the placed column, in a row that has a placed queen), keep a column when no queen
    on the board (an earlier row's or a placed one) shares it or a diagonal (``r - c`` or
    ``r + c``), and go back to the previous row when no column is left. The search visits
    O(n!) partial placements at worst, and the answer itself grows exponentially (92
    solutions for ``n = 8``, 14,200 for 12); placed queens prune it hard.

    References
    ----------
    .. [1] N. Wirth, *Algorithms + Data Structures = Programs*, Prentice-Hall (1976),
       section 3.5 "The eight queens problem".
    """
    if not is_int(n) or n < 1:
        raise ValueError(f"n must be an integer of at least 1, got {n!r}")
    fixed: dict[int, int] = {}
    for queen in placed or ():
        row, col = queen
        if not (is_int(row) and is_int(col) and 0 <= row < n and 0 <= col < n):
            raise ValueError(f"placed queen {list(queen)!r} is off the {n}x{n} board")
        if row in fixed:
            raise ValueError(f"two placed queens share row {row}")
        fixed[row] = col
    if not _non_attacking(list(fixed.items())):
        return {"solutions": [], "count": 0}
    if fixed:
        solutions = _queens_search(n, fixed)
    else:
        # The empty board's mirror image (column c to n - 1 - c) reverses the ascending
        # order: the solutions starting in the right half are the left half's mirrored,
        # last first, so only the left half (and the middle column) is searched.
        left = _queens_search(n, fixed, (1 << (n // 2)) - 1)
        middle = _queens_search(n, fixed, 1 << (n // 2)) if n % 2 else []
        solutions = left + middle + [[n - 1 - c for c in s] for s in reversed(left)]
    return {"solutions": solutions, "count": len(solutions)}


def _queens_search(n: int, fixed: dict[int, int], first: int | None = None) -> list[list[int]]:
    """Every solution keeping the ``fixed`` queens (which attack no other), ascending.

    Parameters
    ----------
    n : int
        The board side.
    fixed : dict
        Row to column of each placed queen; no two attack each other.
    first : int, optional
        The columns row 0's queen may take, as bits (column ``c`` is ``1 << c``).
        Default: every column.

    Returns
    -------
    list of list of int
        The solutions in ascending lexicographic order.

    Notes
    -----
    Columns are bits: a row's taken columns are those a placed queen attacks (wherever it
    stands) or an earlier row's queen attacks (its column, and its diagonals shifted one
    column per row), and the free ones are tried lowest first, so the order is the plain
    search's. Bit masks instead of sets: a 12x12 board's 14,200 solutions in a fraction of
    the time.
    """
    full = (1 << n) - 1
    # Columns of each row attacked by a placed queen of another row.
    fixed_marks = [0] * n
    for row in range(n):
        for queen_row, queen_col in fixed.items():
            if queen_row == row:
                continue
            fixed_marks[row] |= 1 << queen_col
            for col in (queen_col + row - queen_row, queen_col - row + queen_row):
                if 0 <= col < n:
                    fixed_marks[row] |= 1 << col
    if first is not None:
        fixed_marks[0] |= full & ~first
    solutions: list[list[int]] = []
    columns: list[int] = []

    def place(row: int, taken: int, down: int, up: int) -> None:
        if row == n:
            solutions.append(list(columns))
            return
        own = fixed.get(row)
        # A placed queen's column is always free: every earlier queen was chosen off its marks.
        free = 1 << own if own is not None else full & ~(taken | down | up | fixed_marks[row])
        while free:
            bit = free & -free
            free ^= bit
            columns.append(bit.bit_length() - 1)
            place(row + 1, taken | bit, ((down | bit) << 1) & full, (up | bit) >> 1)
            columns.pop()

    place(0, 0, 0, 0)
    return solutions


def _non_attacking(queens: Sequence[tuple[int, int]]) -> bool:
    return all(
        c1 != c2 and abs(c1 - c2) != abs(r1 - r2)
        for i, (r1, c1) in enumerate(queens)
        for r2, c2 in queens[i + 1 :]
    )


def _box_shape(side: int, box_rows: Any, box_cols: Any) -> tuple[int, int]:
    if box_rows is None and box_cols is None:
        # The squarest split with the shorter side down: 4 -> 2x2, 6 -> 2x3, 9 -> 3x3.
        rows = max(d for d in range(1, side + 1) if side % d == 0 and d * d <= side)
        return rows, side // rows
    if not is_int(box_rows) or not is_int(box_cols) or box_rows < 1 or box_cols < 1:
        raise ValueError(
            f"box_rows and box_cols must both be positive integers, got {box_rows!r} "
            f"and {box_cols!r}"
        )
    if box_rows * box_cols != side:
        raise ValueError(
            f"boxes of {box_rows}x{box_cols} do not tile a {side}x{side} grid "
            f"(box_rows * box_cols must be {side})"
        )
    return box_rows, box_cols


def _check_grid(grid: Any) -> list[list[int]]:
    if not isinstance(grid, list | tuple) or not grid:
        raise ValueError("grid must be a non-empty list of rows")
    side = len(grid)
    rows: list[list[int]] = []
    for r, row in enumerate(grid):
        if not isinstance(row, list | tuple) or len(row) != side:
            raise ValueError(f"grid must be square: row {r} is not a list of {side} digits")
        for c, value in enumerate(row):
            if not is_int(value) or not 0 <= value <= side:
                raise ValueError(f"grid[{r}][{c}] must be an integer 0..{side}, got {value!r}")
        rows.append(list(row))
    return rows


def solve_sudoku(
    grid: Sequence[Sequence[int]],
    box_rows: int | None = None,
    box_cols: int | None = None,
) -> dict[str, Any]:
    """Complete a sudoku grid by backtracking, or report that it has no completion.

    Parameters
    ----------
    grid : list of list of int
        A square grid of side ``n`` (4, 6, 9, ...); ``0`` marks a blank, ``1..n`` a given.
    box_rows, box_cols : int, optional
        The box shape: each box is ``box_rows`` rows by ``box_cols`` columns, and
        ``box_rows * box_cols == n``. Give both or neither; neither means the squarest
        split with the shorter side down (4: 2x2, 6: 2x3, 8: 2x4, 9: 3x3).

    Returns
    -------
    dict
        ``{"solution": [[...], ...], "solvable": True}``: the grid with every blank filled
        so that each row, column and box holds ``1..n`` once and every given is kept; or
        ``{"solution": None, "solvable": False}`` when no such grid exists (givens that
        already clash included).

    Raises
    ------
    ValueError
        If the grid is not a non-empty square of integers ``0..n``, or the box shape is
        partial or does not tile the grid.

    Examples
    --------
    >>> solve_sudoku([[1, 0, 0, 0], [0, 0, 3, 0], [0, 4, 0, 0], [0, 0, 0, 2]])
    {'solution': [[1, 3, 2, 4], [4, 2, 3, 1], [2, 4, 1, 3], [3, 1, 4, 2]], 'solvable': True}
    >>> solve_sudoku([[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    {'solution': None, 'solvable': False}
    >>> solve_sudoku([[0, 0], [0, 0]], box_rows=1, box_cols=2)["solution"]
    [[1, 2], [2, 1]]

    Notes
    -----
    Candidates are kept as bit sets per row, column and box. Each step fills the blank with
    the fewest candidates (ties: the first in row-major order), trying its digits in
    ascending order, and undoes the choice when a later blank runs out of candidates. A
    puzzle with one solution always gets that solution; with several, the first this order
    reaches. Worst case exponential in the number of blanks; a few milliseconds on puzzles
    people solve by hand.

    References
    ----------
    .. [1] D. E. Knuth, "Dancing links", *Millennial Perspectives in Computer Science*
       (2000), 187-214 (sudoku as exact cover; this is the plain bit-set search).
    """
    cells = _check_grid(grid)
    side = len(cells)
    height, width = _box_shape(side, box_rows, box_cols)
    full = (1 << (side + 1)) - 2  # bits 1..side
    row_used = [0] * side
    col_used = [0] * side
    box_used = [0] * side
    blanks: list[tuple[int, int, int]] = []
    for r in range(side):
        for c in range(side):
            box = (r // height) * height + c // width
            digit = cells[r][c]
            if digit == 0:
                blanks.append((r, c, box))
                continue
            bit = 1 << digit
            if (row_used[r] | col_used[c] | box_used[box]) & bit:
                return {"solution": None, "solvable": False}
            row_used[r] |= bit
            col_used[c] |= bit
            box_used[box] |= bit

    def search(open_cells: list[tuple[int, int, int]]) -> bool:
        if not open_cells:
            return True
        best_index, best_free, best_count = -1, 0, side + 1
        for index, (r, c, box) in enumerate(open_cells):
            free = full & ~(row_used[r] | col_used[c] | box_used[box])
            count = free.bit_count()
            if count < best_count:
                best_index, best_free, best_count = index, free, count
                if count <= 1:
                    break
        if best_count == 0:
            return False
        r, c, box = open_cells[best_index]
        rest = open_cells[:best_index] + open_cells[best_index + 1 :]
        for digit in range(1, side + 1):
            bit = 1 << digit
            if not best_free & bit:
                continue
            cells[r][c] = digit
            row_used[r] |= bit
            col_used[c] |= bit
            box_used[box] |= bit
            if search(rest):
                return True
            row_used[r] &= ~bit
            col_used[c] &= ~bit
            box_used[box] &= ~bit
        cells[r][c] = 0
        return False

    if not search(blanks):
        return {"solution": None, "solvable": False}
    return {"solution": cells, "solvable": True}


def _check_graph(vertices: Any, edges: Any) -> tuple[list[str], list[tuple[str, str]]]:
    vertices = vertex_labels(vertices)
    if not isinstance(edges, list | tuple):
        raise ValueError(f"edges must be a list, got {type(edges).__name__}")
    known = set(vertices)
    pairs: list[tuple[str, str]] = []
    for edge in edges:
        if not isinstance(edge, list | tuple) or len(edge) != 2:
            raise ValueError(f"each edge must be [u, v], got {edge!r}")
        for end in edge:
            if not isinstance(end, str) or end not in known:
                raise ValueError(f"edge {edge!r} names an unknown vertex {end!r}")
        pairs.append((edge[0], edge[1]))
    return list(vertices), pairs


def graph_coloring(
    vertices: Sequence[str],
    edges: Sequence[Sequence[str]],
    num_colors: int,
) -> dict[str, Any]:
    """Colour an undirected graph with at most ``num_colors`` colours by backtracking.

    Parameters
    ----------
    vertices : list of str
        Unique vertex labels.
    edges : list of [str, str]
        Undirected edges ``[u, v]``; the two ends must get different colours. Repeated
        edges change nothing; a self loop ``[u, u]`` makes the graph uncolourable.
    num_colors : int
        The colours allowed, ``1..num_colors``; at least 1.

    Returns
    -------
    dict
        ``{"colorable": True, "coloring": {vertex: colour}}`` with one key per vertex, in
        the order of ``vertices``, each colour an integer ``1..num_colors`` and the ends of
        every edge coloured differently; or ``{"colorable": False, "coloring": None}`` when
        no such colouring exists.

    Raises
    ------
    ValueError
        If the labels are not unique strings, an edge is not a pair of known vertices, or
        ``num_colors`` is not an integer of at least 1.

    Examples
    --------
    >>> graph_coloring(["A", "B", "C"], [["A", "B"], ["B", "C"]], 2)
    {'colorable': True, 'coloring': {'A': 1, 'B': 2, 'C': 1}}
    >>> graph_coloring(["A", "B", "C"], [["A", "B"], ["B", "C"], ["C", "A"]], 2)
    {'colorable': False, 'coloring': None}
    >>> graph_coloring([], [], 1)
    {'colorable': True, 'coloring': {}}

    Notes
    -----
    The m-colouring search: colour the vertices in the order of ``vertices``, give each the
    smallest colour no already-coloured neighbour has, and when a vertex has no colour left
    go back to the previous vertex and move it to its next colour. The answer is the first
    colouring in that order (lexicographically smallest as a colour sequence). Worst case
    O(k^V) colourings, with O(V + E) work per full pass. Iterative, so long vertex lists
    do not exhaust the recursion limit.

    References
    ----------
    .. [1] E. Horowitz, S. Sahni, *Fundamentals of Computer Algorithms*, Computer Science
       Press (1978), section 7.4 "Graph coloring".
    """
    labels, pairs = _check_graph(vertices, edges)
    if not is_int(num_colors) or num_colors < 1:
        raise ValueError(f"num_colors must be an integer of at least 1, got {num_colors!r}")
    if any(u == v for u, v in pairs):
        return {"colorable": False, "coloring": None}
    position = {v: i for i, v in enumerate(labels)}
    # Only neighbours earlier in the order are coloured when a vertex's turn comes.
    earlier: list[set[int]] = [set() for _ in labels]
    for u, v in pairs:
        a, b = sorted((position[u], position[v]))
        earlier[b].add(a)
    colour = [0] * len(labels)  # 0: not coloured (yet, or any more)
    index = 0
    while 0 <= index < len(labels):
        taken = {colour[j] for j in earlier[index]}
        candidate = colour[index] + 1  # the next colour after the one that failed
        while candidate in taken:
            candidate += 1
        if candidate <= num_colors:
            colour[index] = candidate
            index += 1
        else:
            colour[index] = 0
            index -= 1
    if index < 0:
        return {"colorable": False, "coloring": None}
    return {"colorable": True, "coloring": dict(zip(labels, colour, strict=True))}


def subset_sum(numbers: Sequence[int], target: int) -> dict[str, Any]:
    """A subset of ``numbers`` (by index) that sums to ``target``, found by backtracking.

    Parameters
    ----------
    numbers : list of int
        Non-negative integers; repeats are allowed (each index may be used once).
    target : int
        The non-negative sum to reach.

    Returns
    -------
    dict
        ``{"found": True, "indices": [i, j, ...]}``: 0-based indices in ascending order,
        each used once, whose numbers sum to ``target`` (``[]`` for a target of 0); or
        ``{"found": False, "indices": None}`` when no subset reaches it.

    Raises
    ------
    ValueError
        If ``numbers`` is not a list of non-negative integers or ``target`` is not a
        non-negative integer.

    Examples
    --------
    >>> subset_sum([3, 34, 4, 12, 5, 2], 9)
    {'found': True, 'indices': [0, 2, 5]}
    >>> subset_sum([3, 34, 4, 12, 5, 2], 30)
    {'found': False, 'indices': None}
    >>> subset_sum([], 0)
    {'found': True, 'indices': []}

    Notes
    -----
    Include-or-exclude search over the indices in order: at index ``i`` first try taking
    ``numbers[i]``, then leaving it. A number that would overshoot the target is never
    taken (numbers are non-negative, so a sum can only grow), and a branch is abandoned
    when the sum of everything from ``i`` on cannot close the gap; abandoning undoes the
    latest take and leaves that number out instead. The answer is the first subset this
    order reaches. Worst case O(2^n) branches; iterative, so long lists do not exhaust the
    recursion limit.

    References
    ----------
    .. [1] E. Horowitz, S. Sahni, *Fundamentals of Computer Algorithms*, Computer Science
       Press (1978), section 7.3 "Sum of subsets".
    """
    if not isinstance(numbers, list | tuple):
        raise ValueError(f"numbers must be a list of integers, got {type(numbers).__name__}")
    for index, value in enumerate(numbers):
        if not is_int(value) or value < 0:
            raise ValueError(f"numbers[{index}] must be a non-negative integer, got {value!r}")
    if not is_int(target) or target < 0:
        raise ValueError(f"target must be a non-negative integer, got {target!r}")
    values = list(numbers)
    after = [0] * (len(values) + 1)  # after[i]: the sum of values[i:]
    for index in range(len(values) - 1, -1, -1):
        after[index] = after[index + 1] + values[index]
    chosen: list[int] = []
    index, total = 0, 0
    # Iterative, so a long list cannot exhaust the recursion limit.
    while total != target:
        if index < len(values) and total + after[index] >= target:
            if total + values[index] <= target:
                chosen.append(index)
                total += values[index]
            index += 1
            continue
        if not chosen:  # a dead end with no take left to undo: every branch failed
            return {"found": False, "indices": None}
        undone = chosen.pop()
        total -= values[undone]
        index = undone + 1  # now the branch that skips it
    return {"found": True, "indices": chosen}
