"""Careful answers of the numerical, optimization and backtracking scaffolds."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from verification.reference.numerical import bisection_trace, newton_trace
from verification.reference.optimization import annealing_trace, descent_trace, genetic_trace

from .common import Renderer, answer_block, exact

__all__ = ["RENDERERS"]


def _monte_carlo(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """``w`` and ``N``, a row ``i | u_i | x_i | f(x_i)`` per draw (Horner's rule written
    out), the sum of every value, the mean and the estimate, the answer."""
    coefficients: list[int] = test_input["coefficients"]
    a, width = test_input["a"], test_input["b"] - test_input["a"]
    lines = [f"w = {width}, N = {len(test_input['samples'])}", "| i | u_i | x_i | f(x_i) |"]
    values = []
    for index, u in enumerate(test_input["samples"], 1):
        x = a + width * Fraction(str(u))
        value, shown = Fraction(coefficients[0]), str(coefficients[0])
        for c in coefficients[1:]:
            value = value * x + c
            shown = f"({shown})·{exact(x)} + {c}"
        values.append(value)
        lines.append(f"| {index} | {u} | {exact(x)} | {shown} = {exact(value)} |")
    total = sum(values, Fraction(0))
    lines.append("S = " + " + ".join(exact(v) for v in values) + f" = {exact(total)}")
    lines.append(f"S / N = {float(total / len(values))}; estimate = {expected['estimate']}")
    return "\n".join(lines) + "\n" + answer_block(expected)


def _horner(coefficients: list[int] | list[float], x: float) -> str:
    """Horner's rule written out: ``v = 1 -> 0.5 -> 2.25 -> 3.625``."""
    value, shown = float(coefficients[0]), [f"{coefficients[0]}"]
    for c in coefficients[1:]:
        value = value * x + c
        shown.append(f"{value:.10g}")
    return "v = " + " -> ".join(shown)


def _newton_raphson(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The derivative's coefficients, Horner's rule for ``f`` and ``f'`` at each iterate, a
    table row per iteration, the result, the answer."""
    coefficients: list[int] = test_input["coefficients"]
    degree = len(coefficients) - 1
    derivative = [c * (degree - i) for i, c in enumerate(coefficients[:-1])] or [0]
    lines = [f"f'(x) coefficients: {derivative}", "| k | x | f(x) | f'(x) | step | x_new | stop? |"]
    for step in newton_trace(**test_input):
        x = step.x
        lines.append(f"x = {x:.10g}: f: {_horner(coefficients, x)}; f': {_horner(derivative, x)}")
        if step.x_new is None:
            lines.append(f"| {step.iteration} | {x:.10g} | {step.fx:.10g} | 0 | - | - | stop |")
            continue
        change = step.x - step.x_new
        lines.append(
            f"| {step.iteration} | {x:.10g} | {step.fx:.10g} | {step.dfx:.10g} | "
            f"{change:.10g} | {step.x_new:.10g} | {'yes' if abs(change) < 1e-6 else 'no'} |"
        )
    lines.append(f"Result: root {expected['root']}, {expected['iterations']} iterations.")
    return "\n".join(lines) + "\n" + answer_block(expected)


def _simulated_annealing(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """A line per step as the scaffold's example writes it (the temperature, the flipped
    bit, the energies' difference, the probability of an uphill move, the decision, the
    current and the best state), the answer."""
    energies: dict[str, int] = test_input["energies"]
    current = best = test_input["initial_state"]
    lines = []
    for step, (r, _) in zip(annealing_trace(**test_input), test_input["draws"], strict=True):
        bit = int(r * len(current))
        decision = "downhill → accept"
        if step.probability is not None:
            p = step.probability
            decision = f"p = exp({-step.delta / step.temperature:.5g}) = {p:.3f}, u = {step.u} "
            decision += "< p → accept" if step.accepted else ">= p → reject"
        if step.accepted:
            current = str(step.candidate)
            if energies[current] < energies[best]:
                best = current
        lines.append(
            f"k={step.step}, T={step.temperature:.6g}: r={r} → i={bit}: {step.state} → "
            f"{step.candidate}, delta = {energies[str(step.candidate)]} - "
            f"{energies[str(step.state)]} = {step.delta:+g}, {decision}. "
            f"Current {current} ({energies[current]}). Best {best} ({energies[best]})."
        )
    return "\n".join(lines) + "\n" + answer_block(expected)


def _subset_sum(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The suffix sums, then a line per step of the scaffold's search (take, skip, dead
    end, undo, success) as its example writes them, the answer."""
    numbers: list[int] = test_input["numbers"]
    target: int = test_input["target"]
    rest = [sum(numbers[i:]) for i in range(len(numbers) + 1)]
    lines = [f"rest = {rest}"]
    taken: list[int] = []
    index = total = 0
    while total != target:
        if index == len(numbers) or total + rest[index] < target:
            lines.append(f"i={index} sum {total}: {total}+rest {rest[index]} < {target} -> back")
            if not taken:
                lines.append("nothing left to undo: no subset")
                break
            undone = taken.pop()
            total -= numbers[undone]
            lines.append(f"undo i={undone} ({numbers[undone]}), skip it")
            index = undone + 1
        elif total + numbers[index] <= target:
            taken.append(index)
            lines.append(
                f"i={index} ({numbers[index]}) sum {total}: take -> {total + numbers[index]}"
            )
            total += numbers[index]
            index += 1
        else:
            value = numbers[index]
            lines.append(f"i={index} ({value}) sum {total}: {total}+{value} > {target} -> skip")
            index += 1
    else:
        lines.append(f"sum {total} = target -> success. Positions taken: {taken}")
    return "\n".join(lines) + "\n" + answer_block(expected)


def _genetic_algorithm(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Per generation the fitness list, then a line per pair as the scaffold's example
    writes it (both tournaments with their draws, the crossover, the flips), the answer."""
    generations, _ = genetic_trace(
        population=test_input["population"],
        draws=test_input["draws"],
        mutation_rate=test_input["mutation_rate"],
        weights=test_input["weights"],
    )
    lines = []
    for number, (generation, draws) in enumerate(
        zip(generations, test_input["draws"], strict=True)
    ):
        people = generation.population
        lines.append(f"Generation {number + 1}: fitness {list(generation.fitness)}")
        for k, (pair, drawn) in enumerate(zip(generation.pairs, draws, strict=True), 1):
            select = drawn["select"]
            parents = []
            for side, (first, second, winner) in enumerate(pair.tournaments):
                one, two = select[2 * side], select[2 * side + 1]
                parents.append(
                    f"{'ab'[side]} {one}→#{first}, {two}→#{second} → P{side + 1} = "
                    f"#{winner} {people[winner]}"
                )
            flips = [", ".join(f"bit {b}" for b in bits) or "none" for bits in pair.flipped]
            lines.append(
                f"Pair {k}: {'; '.join(parents)}. t = {pair.point} ({drawn['cross']}): "
                f"{', '.join(pair.crossed)}. Flips: child 1 {flips[0]}; child 2 {flips[1]} "
                f"→ {', '.join(pair.children)}."
            )
    return "\n".join(lines) + "\n" + answer_block(expected)


def _gradient_descent(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """The gradient, a row ``k | x | g | s | x_new | |s| < tolerance?`` per iteration, the
    result, the answer."""
    if "coefficients" in test_input:
        gradient = f"derivative of {test_input['coefficients']}"
    else:
        gradient = f"A·x + b, A = {test_input['matrix']}, b = {test_input['vector']}"
    lines = [f"gradient: {gradient}", "| k | x | g | s | x_new | |s| < tolerance? |"]
    tolerance = test_input["tolerance"]

    def shown(vector: Any) -> str:
        return ", ".join(f"{v:.10g}" for v in vector)

    for step in descent_trace(**test_input):
        s = [test_input["learning_rate"] * g for g in step.gradient]
        lines.append(
            f"| {step.iteration} | {shown(step.x)} | {shown(step.gradient)} | {shown(s)} | "
            f"{shown(step.x_new)} | {'yes' if step.step_norm < tolerance else 'no'} |"
        )
    lines.append(f"Result: {expected['minimum']}, {expected['iterations']} iterations.")
    return "\n".join(lines) + "\n" + answer_block(expected)


_UP_LEFT_RIGHT_DOWN = (("up", -1, 0), ("left", 0, -1), ("right", 0, 1), ("down", 1, 0))


def _hill_climbing(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """A line per cell of each climb, its neighbours' values in the scaffold's order (up,
    left, right, down) and the move or the peak, as its example writes them; the answer."""
    grid: list[list[int]] = test_input["grid"]
    lines = []
    for number, path in enumerate(expected["paths"], 1):
        lines.append(f"Start {number}: {path[0]}")
        for index, (r, c) in enumerate(path):
            around = [
                f"{name} {grid[r + dr][c + dc]}"
                for name, dr, dc in (
                    ("up", -1, 0),
                    ("left", 0, -1),
                    ("right", 0, 1),
                    ("down", 1, 0),
                )
                if 0 <= r + dr < len(grid) and 0 <= c + dc < len(grid[0])
            ]
            if index + 1 < len(path):
                nr, nc = path[index + 1]
                end = f"move to [{nr}, {nc}] ({grid[nr][nc]})"
            else:
                end = "none larger, peak"
            lines.append(f"[{r}, {c}] = {grid[r][c]}: {', '.join(around)} → {end}")
    return "\n".join(lines) + "\n" + answer_block(expected)


def _bisection(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """``f(a)`` and ``f(b)``, a row ``k | a | b | h | m | f(m) | sign | h < tolerance? |
    new interval`` per iteration, the result, the answer."""
    coefficients: list[int] = test_input["coefficients"]

    def f(x: float) -> float:
        value = 0.0
        for c in coefficients:
            value = value * x + c
        return value

    a, b, tolerance = test_input["a"], test_input["b"], test_input["tolerance"]
    lines = [f"f(a) = f({a}) = {f(a):.10g}, f(b) = f({b}) = {f(b):.10g}"]
    for step in bisection_trace(**test_input):
        sign = "+" if step.f_midpoint > 0 else "-" if step.f_midpoint < 0 else "0"
        done = "yes" if step.half_width < tolerance else "no"
        lines.append(
            f"| {step.iteration} | {step.a:.10g} | {step.b:.10g} | {step.half_width:.10g} | "
            f"{step.midpoint:.10g} | {step.f_midpoint:.8g} | {sign} | {done} | |"
        )
    lines.append(f"Result: root {expected['root']}, {expected['iterations']} iterations.")
    return "\n".join(lines) + "\n" + answer_block(expected)


def _sudoku(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """Passes over the blanks, a line per blank looked at (the digits its row, column and
    box hold, its candidates, a fill when one is left), as the scaffold's example writes
    them; where a pass fills nothing, a guess of the solution's digit (a right guess: the
    undone wrong ones a model may write are left to the margin); the answer."""
    grid = [list(row) for row in test_input["grid"]]
    height, width = test_input["box_rows"], test_input["box_cols"]
    side = height * width
    solution = expected["solution"]
    lines = []
    blanks = [(r, c) for r in range(side) for c in range(side) if not grid[r][c]]
    while blanks:
        filled = False
        for r, c in list(blanks):
            row = sorted({v for v in grid[r] if v})
            column = sorted({grid[i][c] for i in range(side) if grid[i][c]})
            top, left = r - r % height, c - c % width
            box = sorted(
                {grid[i][j] for i in range(top, top + height) for j in range(left, left + width)}
                - {0}
            )
            left_over = sorted(set(range(1, side + 1)) - set(row) - set(column) - set(box))
            shown = ",".join(map(str, left_over))
            line = f"R{r + 1}C{c + 1}: row {','.join(map(str, row))} | column "
            line += f"{','.join(map(str, column))} | box {','.join(map(str, box))} -> {shown}"
            if len(left_over) == 1:
                grid[r][c] = left_over[0]
                blanks.remove((r, c))
                filled = True
                line += " (fill)"
            lines.append(line)
        if not filled and blanks and solution:
            r, c = blanks.pop(0)
            grid[r][c] = solution[r][c]
            lines.append(f"guess R{r + 1}C{c + 1} = {grid[r][c]}")
        elif not filled:
            break
    return "\n".join(lines) + "\n" + answer_block(expected)


def _n_queens(test_input: dict[str, Any], expected: dict[str, Any]) -> str:
    """A line per partial placement of the scaffold's search with the free columns of its
    next row (``[0, 3] -> row 2 free: 1``, a dead end, a solution), the answer."""
    n, fixed = test_input["n"], {row: col for row, col in test_input["placed"]}
    lines: list[str] = []

    def attacked(row: int, col: int, queens: dict[int, int]) -> bool:
        return any(c == col or abs(c - col) == abs(r - row) for r, c in queens.items())

    def visit(placement: list[int]) -> None:
        row = len(placement)
        if row == n:
            lines.append(f"{placement} -> solution")
            return
        queens = {**fixed, **dict(enumerate(placement))}
        queens.pop(row, None)
        options = [fixed[row]] if row in fixed else list(range(n))
        free = [col for col in options if not attacked(row, col, queens)]
        shown = ", ".join(map(str, free)) or "none (dead end)"
        lines.append(f"{placement} -> row {row} free: {shown}")
        for col in free:
            visit([*placement, col])

    visit([])
    return "\n".join(lines) + "\n" + answer_block(expected)


RENDERERS: dict[str, Renderer] = {
    "bisection": _bisection,
    "genetic_algorithm": _genetic_algorithm,
    "gradient_descent": _gradient_descent,
    "hill_climbing": _hill_climbing,
    "monte_carlo": _monte_carlo,
    "n_queens": _n_queens,
    "newton_raphson": _newton_raphson,
    "simulated_annealing": _simulated_annealing,
    "subset_sum": _subset_sum,
    "sudoku": _sudoku,
}
