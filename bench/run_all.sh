#!/usr/bin/env bash
# Every measurement in BENCHMARKS.md, in the order it lists them. Needs ../shared/data and,
# for the peers, clingo (python3 -m pip install -e ".[bench]"). Run on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/results
mkdir -p "$out"

[ "${SKIP_CLI:-}" ] || python3 bench/bench_cli.py --runs 9                                    | tee "$out/cli.json"
for set in battleship csplib kakurasu; do
  python3 bench/bench_datasets.py "$set"                               | tee "$out/ours-$set.json"
done
python3 bench/peers/run_clingo.py battleship                           | tee "$out/clingo-battleship.json"
python3 bench/peers/run_clingo.py kakurasu                             | tee "$out/clingo-kakurasu.json"
for pb in bdd binmerge totalizer sortnetwrk; do
  python3 bench/bench_datasets.py kakurasu --pb "$pb"                  | tee "$out/ours-kakurasu-$pb.json"
done
python3 bench/bench_kakurasu_random.py --size 30 --seeds 1,2,3,4,5 --time-limit 60 --pb binmerge \
                                                                       | tee "$out/ours-kakurasu-random30.json"
python3 bench/peers/run_clingo.py kakurasu-random --size 30 --seeds 1,2,3,4,5 --time-limit 60 \
                                                                       | tee "$out/clingo-kakurasu-random30.json"
# puzzles played over time (issue 4)
python3 bench/bench_planning.py --runs 3 --chilly-limit 60 --moves-limit 120 --out "$out/planning.json"
python3 bench/peers/run_clingo.py pegsol puzzles/peg-solitaire/english.txt --runs 3 --config trendy \
                                                                       | tee "$out/clingo-pegsol.json"
# the janko genres (issue 10): every puzzle of the fast genres, samples of the slow ones
python3 bench/bench_genres.py hitori binairo tent norinori skyscraper thermometer mosaic kuromasu lits magnetic \
  kenken killer_sudoku str8t hidoku hashi simple_loop shakashaka tatamibari akari masyu slitherlink sudoku star_battle \
  --time-limit 30 --out "$out/genres-all.json"
python3 bench/bench_genres.py nonogram galaxies --limit 60 --time-limit 30 --out "$out/genres-sample60.json"
# clingo peers for 12 genres, interleaved with puzzledsl on the same puzzles (issue 10)
python3 bench/bench_peer_ratios.py --limit 40 --time-limit 30 --out "$out/peer-ratios40.json"
