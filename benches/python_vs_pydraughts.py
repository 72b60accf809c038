"""pdnkit.check against py-draughts on the same international games, one run.

    pip install ./python py-draughts
    python benches/python_vs_pydraughts.py [FILE.pdn]   (default: ../shared/conformance games)

py-draughts reads a game with `StandardBoard.from_pdn`, which replays and
validates its moves; pdnkit.check reads, replays and checks every game of the
file. Prints both times, the ratio, and how many games each rejects.
"""
import pathlib
import re
import sys
import time

import draughts
import pdnkit

ROOT = pathlib.Path(__file__).resolve().parents[1]


def default_file() -> bytes:
    folder = ROOT.parent / "shared" / "conformance"
    files = sorted((folder / "games" / "10x10").rglob("*.pdn"))
    if not files:
        sys.exit(f"no international games under {folder}: name a file")
    return b"\n\n".join(p.read_bytes() for p in files)


def main() -> None:
    data = pathlib.Path(sys.argv[1]).read_bytes() if len(sys.argv) > 1 else default_file()
    games = [g for g in re.split(rb"\n\s*\n(?=\[)", data) if g.strip()]
    t0 = time.perf_counter()
    checked = pdnkit.check(data, variant="international")
    t_pdnkit = time.perf_counter() - t0
    rejected_pdnkit = sum(1 for g in checked.games if g["valid"] is not True)
    t0 = time.perf_counter()
    rejected_py = 0
    for g in games:
        try:
            draughts.StandardBoard.from_pdn(g.decode("utf-8", "replace"))
        except Exception:  # noqa: BLE001 - any refusal counts
            rejected_py += 1
    t_py = time.perf_counter() - t0
    print(f"{len(data) / 1e6:.2f} MB, {len(games)} games (pdnkit reads {len(checked.games)})")
    print(f"pdnkit.check: {t_pdnkit:.3f} s, {rejected_pdnkit} games not valid")
    print(f"py-draughts StandardBoard.from_pdn: {t_py:.3f} s, {rejected_py} games rejected")
    print(f"pdnkit is {t_py / t_pdnkit:.0f}x py-draughts")


if __name__ == "__main__":
    main()
