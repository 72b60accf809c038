"""pdnkit against its peers on the same files of legal international games, one run.

    python3 benches/peers.py [MB]      (default 5; needs ../shared and a release build)

Installs dame-rs==0.2.0 and py-draughts==1.10.1 from PyPI into a temporary folder
(nothing is installed in the environment), builds a file of MB megabytes from the
legal international games of the conformance data and the real corpus
(`pdnkit select --valid`) that dame-rs's reader takes, and
times, each on one thread, in rounds:

- `pdnkit check -j1 --format json` (read, replay, check every game, JSON out);
- `pdnkit check --syntax-only -j1 -q` (the reader alone);
- dame-rs's own Rust PDN reader: `OpeningBook.from_file(path, plies=1000)`;
- dame-rs's board replaying every game from Python (`Board.parse_move`, `push`);
- py-draughts replaying every game (`StandardBoard.from_pdn`), on a tenth of the
  games (it is slow), scaled up.

Prints the medians and the ratios of pdnkit to each peer, within each round.
"""
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
BIN = ROOT / "target" / "release" / "pdnkit"
ROUNDS = int(os.environ.get("RUNS", "3"))


def build_file(tmp: pathlib.Path, mb: int) -> pathlib.Path:
    legal = tmp / "legal.pdn"
    with open(legal, "wb") as out:
        subprocess.run(
            [str(BIN), "select", "--valid", "--variant-is", "international", "--no-progress",
             str(SHARED / "conformance" / "games"), str(SHARED / "corpus" / "real" / "international")],
            stdout=out, stderr=subprocess.DEVNULL, check=False)
    import dame
    # Only the games dame-rs's reader takes (it refuses some notations, `23:34`).
    kept = []
    for g in re.split(rb"\n\s*\n(?=\[)", legal.read_bytes()):
        try:
            dame.OpeningBook.from_pdn(g.decode("utf-8", "replace"), plies=1000)
            kept.append(g.strip())
        except Exception:
            pass
    unit = b"\n\n".join(kept)
    if not unit.strip():
        sys.exit("no legal international games found")
    big = tmp / "peers.pdn"
    with open(big, "wb") as f:
        size = 0
        while size < mb * 1_000_000:
            f.write(unit + b"\n\n")
            size += len(unit) + 2
    return big


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main() -> None:
    mb = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    if not SHARED.is_dir():
        print(f"SKIP: {SHARED} is absent")
        return
    if not BIN.exists():
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", str(tmp / "site"),
                        "dame-rs==0.2.0", "py-draughts==1.10.1"], check=True)
        sys.path.insert(0, str(tmp / "site"))
        import dame  # noqa: E402
        import draughts  # noqa: E402

        path = build_file(tmp, mb)
        data = path.read_bytes()
        games = [g.decode("utf-8", "replace") for g in re.split(rb"\n\s*\n(?=\[)", data) if g.strip()]
        movetexts = []
        for g in games:
            body = re.sub(r"\[[^\]]*\]|\{[^}]*\}|\([^)]*\)", " ", g)
            movetexts.append([t for t in body.split()
                              if re.fullmatch(r"\d+[-x]\d+(x\d+)*", t)])
        sample = games[:: 10]

        def pdnkit_json():
            subprocess.run([str(BIN), "check", "-j1", "--format", "json", "--no-progress", str(path)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

        def pdnkit_reader():
            subprocess.run([str(BIN), "check", "--syntax-only", "-q", "-j1", "--no-progress", str(path)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)

        def dame_reader():
            dame.OpeningBook.from_file(str(path), plies=1000)

        def dame_replay():
            for moves in movetexts:
                b = dame.Board()
                for m in moves:
                    try:
                        b.push(b.parse_move(m))
                    except Exception:
                        break

        def pydraughts_tenth():
            for g in sample:
                try:
                    draughts.StandardBoard.from_pdn(g)
                except Exception:
                    pass

        rows = {k: [] for k in ["pdnkit check -j1 --format json", "pdnkit reader alone (-j1)",
                                "dame-rs OpeningBook.from_file", "dame-rs Board replay",
                                "py-draughts from_pdn (x10)"]}
        for _ in range(ROUNDS):
            rows["pdnkit check -j1 --format json"].append(timed(pdnkit_json))
            rows["pdnkit reader alone (-j1)"].append(timed(pdnkit_reader))
            rows["dame-rs OpeningBook.from_file"].append(timed(dame_reader))
            rows["dame-rs Board replay"].append(timed(dame_replay))
            rows["py-draughts from_pdn (x10)"].append(timed(pydraughts_tenth) * len(games) / len(sample))
        print(f"file: {len(data) / 1e6:.1f} MB, {len(games)} legal international games; "
              f"medians of {ROUNDS} rounds, one thread each")
        print()
        print("| what | time | pdnkit check -j1 --format json against it |")
        print("|---|---|---|")
        ours = rows["pdnkit check -j1 --format json"]
        for name, times in rows.items():
            ratio = statistics.median(t / o for t, o in zip(times, ours))
            print(f"| {name} | {statistics.median(times):.3f} s | {ratio:.1f}x |")


if __name__ == "__main__":
    main()
