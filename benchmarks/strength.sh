#!/usr/bin/env bash
# The strength tables of benchmarks/README.md ("Strength"), as they were run: two queues, one
# per core, each table a `cardtable arena` tournament in its own folder under $RUNS. Run again,
# a queue resumes each unfinished table where it stopped (--resume) and skips finished ones.
#
#   benchmarks/strength.sh 1 &    # queue 1: the levels against easy and random
#   benchmarks/strength.sh 2 &    # queue 2: the new search against the Python one; ideas
#   benchmarks/strength.sh 3      # queue 3: one more idea, once queue 2 is done
#   benchmarks/strength.sh 4 &    # queue 4: expert against hard, hard against the cheater
#   benchmarks/strength.sh 5 &    # queue 5: expert against the cheater
#   benchmarks/strength.sh 6 &    # queue 6: Neuf's PIMC endgames against hard
#   benchmarks/strength.sh 7 &    # queue 7: Kryt'-navalivat's expert against hard
#   benchmarks/strength.sh 8 &    # queue 8: Neuf's hard (its expert) against the cheater
#   benchmarks/strength.sh 9 &    # queue 9: Kryt'-navalivat's hard and expert against the cheater
#   benchmarks/strength.sh 10 &   # queue 10: hard's search with exact leaves against hard
#   benchmarks/strength.sh 11 &   # queue 11: that search against the cheater
#   benchmarks/strength.sh 12 &   # queue 12: that search against PIMC, face to face
#   benchmarks/strength.sh 13 &   # queue 13: queues 7 and 9 again at 2,000 iterations
#   benchmarks/strength.sh 14 &   # queue 14: Kryt'-navalivat's expert given five times the search
#   benchmarks/strength.sh 15 &   # queue 15: queue 14's first table at five times its budget
#   WORKERS=2 benchmarks/strength.sh 16   # queue 16: Knockout Whist's learned estimate
#   WORKERS=2 benchmarks/strength.sh 17   # queue 17: Neuf's learned value at a trick's end
#   benchmarks/strength.sh 18 & benchmarks/strength.sh 19 &   # Knockout Whist's gap, longer
#   WORKERS=2 benchmarks/strength.sh 20   # queue 20: Knockout Whist's expert on two threads
#   WORKERS=2 benchmarks/strength.sh 21   # queue 21: Kryt'-navalivat's expert against hard,
#                                         #   both at play's budgets
#   WORKERS=1 benchmarks/strength.sh 22   # queue 22: Knockout Whist's learned policy prior
#   benchmarks/strength.sh 23 &   # queue 23: the hint-following player against hard
#   benchmarks/strength.sh 24 &   # queue 24: Neuf's hint-following player, by the deal
#   benchmarks/strength.sh 25 &   # queue 25: Knockout Whist's hint-following player, 1,200 deals
#   benchmarks/strength.sh 26 &   # queue 26: Kryt'-navalivat''s hint-following player at an
#                                 #   equal search
#   benchmarks/strength.sh 27 &   # queue 27: Neuf's hint-following player at hard's search
#   WORKERS=2 benchmarks/strength.sh 28   # queue 28: Knockout Whist's hint-following player,
#                                         #   4,000 deals
#   benchmarks/strength.sh 29 &   # queue 29: queue 26 again, covers and leads tied to the highest
#   WORKERS=2 benchmarks/strength.sh 30   # queue 30: queue 29's question, 3,000 new deals
#
# The rule written down before any table started: play the games asked for, but stop after
# the first whole deal (of at least 100) at which the first bot's 95% interval lies at least
# MARGIN from every other bot's (0.02 for win and loss rates, 0.1 points for Neuf's score a
# deal); `--stop-when-separated` applies it. Neuf is measured one deal per game
# (`--per-deal`: the score a seat's side gains in the deal, 4 - tricks, lower is better).
set -euo pipefail
RUNS=${RUNS:-strength-runs}
PYTHON=${PYTHON:-.venv/bin/python}
PYTHON_T="ismcts:seconds=0.01,engine=python"  # the Python search at a fixed time
EXPLORE="ismcts:iterations=50000,seconds=0.9,exploration=1.0"  # hard, exploring more
CAUTIOUS="ismcts:iterations=50000,seconds=0.9,exploration=0.4"  # hard, exploring less
KRYT_NAVALIVAT_HARD="ismcts:iterations=10000,seconds=0.9"  # hard at a fifth of its iterations
KRYT_NAVALIVAT_EXPERT="pimc:deals=100,seconds=0.9,model=paranoid,iterations=10000"  # expert, likewise
KRYT_NAVALIVAT_CHEATER="cheater:iterations=10000"  # the cheater, likewise
KRYT_NAVALIVAT_HARD_2K="ismcts:iterations=2000,seconds=0.9"  # queue 13: a twenty-fifth of hard's
KRYT_NAVALIVAT_EXPERT_2K="pimc:deals=100,seconds=0.9,model=paranoid,iterations=2000"
KRYT_NAVALIVAT_CHEATER_2K="cheater:iterations=2000"
# A table too long for one machine's session is saved as its games without their records
# (`strength.sh save NAME`: a few hundred bytes a game, committed under $SAVED) and goes on
# from there wherever the queue runs next: a missing folder starts from the saved games.
SAVED=${SAVED:-benchmarks/results/strength}
mkdir -p "$RUNS"

table() {  # table NAME GAME ARGS...: one tournament, resumed if its folder exists
  local name=$1 game=$2
  shift 2
  if [[ ! -d "$RUNS/$name" && -f "$SAVED/$name/games.jsonl.gz" ]]; then
    mkdir -p "$RUNS/$name"
    cp "$SAVED/$name/arena.json" "$RUNS/$name/"
    gunzip -c "$SAVED/$name/games.jsonl.gz" > "$RUNS/$name/games.jsonl"
  fi
  # Another queue playing it: wait for it to end rather than play it twice.
  while pgrep -f -- "cardtable arena .*$RUNS/$name\$" >/dev/null; do sleep 10; done
  # A finished table: played in full or stopped by the rule. `--report-only` writes a
  # summary.json too, over the games so far, so its presence alone does not end a table.
  if [[ -f "$RUNS/$name/summary.json" ]] && "$PYTHON" - "$RUNS/$name/summary.json" <<'EOF_'
import json, sys
summary = json.load(open(sys.argv[1]))
done = summary["finished"] + summary["failed"] >= summary["scheduled"]
sys.exit(0 if done or (summary.get("stopping") or {}).get("stopped") else 1)
EOF_
  then
    return 0
  fi
  if [[ -d "$RUNS/$name" ]]; then
    "$PYTHON" -m cardtable arena "$game" "$@" --resume "$RUNS/$name" || true
  else
    "$PYTHON" -m cardtable arena "$game" "$@" --out "$RUNS/$name" || true
  fi
}

# WORKERS: games played at once (a resumed table plays the same games with any number).
rate=(--stop-when-separated 0.02 --min-deals 100 --seed 2 --workers "${WORKERS:-1}")
score=(--stop-when-separated 0.1 --min-deals 100 --seed 2 --workers "${WORKERS:-1}" --per-deal)

case ${1:?queue 1 to 30, or save NAME} in
save)
  # The games so far of table NAME, each with its record left out ({}): what --resume and
  # --report-only read of a finished game is its result, not its moves.
  name=${2:?save NAME}
  mkdir -p "$SAVED/$name"
  cp "$RUNS/$name/arena.json" "$SAVED/$name/"
  "$PYTHON" - "$RUNS/$name/games.jsonl" <<'EOF_' | gzip -9n > "$SAVED/$name/games.jsonl.gz"
import json, sys
for line in open(sys.argv[1], encoding="utf-8"):
    try:
        game = json.loads(line)
    except json.JSONDecodeError:
        continue  # the line a running table is writing: played again on resume
    game["record"] = {}
    print(json.dumps(game, ensure_ascii=False))
EOF_
  ;;
1)
  table knockout-whist-2-hard-random knockout-whist -p 2 --bots hard,random --games 2000 "${rate[@]}"
  table kryt-navalivat-2-hard-random kryt-navalivat -p 2 --bots hard,random --games 2000 "${rate[@]}"
  table kryt-navalivat-2-hard-easy kryt-navalivat -p 2 --bots hard,easy --games 2000 "${rate[@]}"
  table knockout-whist-2-hard-easy knockout-whist -p 2 --bots hard,easy --games 2000 "${rate[@]}"
  ;;
2)
  # The new search against the Python one at equal wall-clock time: both search 0.01 s a
  # decision and nothing else bounds them (their other settings are hard's). A
  # Kryt'-navalivat' game between two searchers runs long, so that table asks for 300
  # games, not 1,000 (benchmarks/README.md, "Strength", has the sizing).
  table knockout-whist-2-core-python-0.01s knockout-whist -p 2 \
    --bots "ismcts:seconds=0.01,$PYTHON_T" --games 1000 "${rate[@]}"
  table neuf-3-python-core-0.01s-per-deal neuf -p 3 \
    --bots "$PYTHON_T,ismcts:seconds=0.01,ismcts:seconds=0.01" --games 1000 "${score[@]}"
  table kryt-navalivat-2-core-python-0.01s kryt-navalivat -p 2 \
    --bots "ismcts:seconds=0.01,$PYTHON_T" --games 300 --stop-when-separated 0.02 \
    --min-deals 50 --seed 2 --workers 1
  table knockout-whist-3-hard-easy-random knockout-whist -p 3 --bots hard,easy,random --games 600 "${rate[@]}"
  table neuf-3-hard-random-per-deal neuf -p 3 --bots hard,random,random --games 2000 "${score[@]}"
  table neuf-3-hard-easy-per-deal neuf -p 3 --bots hard,easy,easy --games 2000 "${score[@]}"
  # Ideas for strength, each against the hard level in a duplicate match, in Neuf (one deal
  # a game: cheap, and every trick counts): are 50,000 iterations worth more than 5,000,
  # and is UCB1's exploration constant of 0.7 (OpenSpiel's default too) right at this size?
  table neuf-3-hard-5000-per-deal neuf -p 3 \
    --bots hard,ismcts:iterations=5000,ismcts:iterations=5000 --games 1000 "${score[@]}"
  # Sized to end with the session: 600 games (200 deals) each. An idea table still playing
  # at the session's end is stopped there and reported over its whole deals as cut by
  # time, whatever it shows.
  table neuf-3-hard-exploration-1.0-per-deal neuf -p 3 \
    --bots "hard,$EXPLORE,$EXPLORE" --games 600 "${score[@]}"
  table neuf-3-hard-exploration-0.4-per-deal neuf -p 3 \
    --bots "hard,$CAUTIOUS,$CAUTIOUS" --games 600 "${score[@]}"
  ;;
3)
  # Started once queue 2 is done: would four times hard's iterations (about 0.3 s a
  # decision) be worth their time?
  table neuf-3-200000-hard-per-deal neuf -p 3 \
    --bots "ismcts:iterations=200000,seconds=0.9,hard,hard" --games 600 "${score[@]}"
  ;;
4)
  # The expert level (PIMC over the exact solver) against hard, then hard against the
  # cheater (the solver on the true deal, every card in view): Knockout Whist, 3 players.
  # Sized from the trial tables (docs/bots.md; benchmarks/README.md, "Strength"); the rule
  # above stops a table sooner once its intervals separate.
  table knockout-whist-3-expert-hard knockout-whist -p 3 --bots expert,hard --games 1200 "${rate[@]}"
  table knockout-whist-3-hard-cheater knockout-whist -p 3 --bots hard,cheater --games 1200 "${rate[@]}"
  ;;
5)
  table knockout-whist-3-expert-cheater knockout-whist -p 3 --bots expert,cheater --games 1200 "${rate[@]}"
  ;;
6)
  # Neuf: PIMC over the end of a deal against hard, one deal a game scored per deal: the
  # first table paranoid over the last 24 cards, the second max-n over the last five
  # tricks. A table stopped by time is reported with --report-only.
  table neuf-3-expert-hard-per-deal neuf -p 3 \
    --bots "pimc:deals=100,seconds=0.9,model=paranoid,cards=24,hard,hard" --games 1000 "${score[@]}"
  table neuf-3-pimc-max-n-15-hard-per-deal neuf -p 3 \
    --bots "pimc:deals=100,seconds=0.9,model=max-n,cards=15,hard,hard" --games 600 "${score[@]}"
  ;;
7)
  # Kryt'-navalivat's expert (hard's search, then the exact endgame once the stock is
  # empty) against hard. Between two searchers a game runs long, the pile passing to and
  # fro once the stock is empty, so both bots search 10,000 iterations a decision instead
  # of 50,000, for 1,000 games in a couple of core-hours (benchmarks/README.md,
  # "Strength"); the solver's budget is play's.
  table kryt-navalivat-2-expert-hard-10000 kryt-navalivat -p 2 \
    --bots "$KRYT_NAVALIVAT_EXPERT,$KRYT_NAVALIVAT_HARD" --games 1000 "${rate[@]}"
  ;;
8)
  # Neuf's expert is hard: hard against the cheater (the solver on the true deal, paranoid).
  table neuf-3-hard-cheater-per-deal neuf -p 3 --bots hard,cheater --games 1000 "${score[@]}"
  ;;
9)
  # Kryt'-navalivat's cheater: hard's search on the true state, the stock's order in view,
  # and the exact endgame beside it; all three at queue 7's 10,000 iterations.
  table kryt-navalivat-2-hard-cheater-10000 kryt-navalivat -p 2 \
    --bots "$KRYT_NAVALIVAT_HARD,$KRYT_NAVALIVAT_CHEATER" --games 1000 "${rate[@]}"
  table kryt-navalivat-2-expert-cheater-10000 kryt-navalivat -p 2 \
    --bots "$KRYT_NAVALIVAT_EXPERT,$KRYT_NAVALIVAT_CHEATER" --games 1000 "${rate[@]}"
  ;;
10)
  # Knockout Whist, 3 players: hard's search solving each sampled hand exactly once nine
  # cards are left (solve=9), against hard.
  table knockout-whist-3-solve9-hard knockout-whist -p 3 \
    --bots "ismcts:iterations=50000,seconds=0.9,solve=9,hard" --games 1200 "${rate[@]}"
  ;;
11)
  table knockout-whist-3-solve9-cheater knockout-whist -p 3 \
    --bots "ismcts:iterations=50000,seconds=0.9,solve=9,cheater" --games 1200 "${rate[@]}"
  ;;
12)
  # Decides Knockout Whist's expert by a rule written down before the tables ended
  # (benchmarks/README.md, "Strength"): solve=9 against PIMC, face to face.
  table knockout-whist-3-solve9-pimc knockout-whist -p 3 \
    --bots "ismcts:iterations=50000,seconds=0.9,solve=9,pimc:deals=100,seconds=0.9,model=paranoid" \
    --games 1200 "${rate[@]}"
  ;;
13)
  # Queues 7 and 9 again with every search at 2,000 iterations, the solver's budget still
  # play's: a game at 2,000 takes a fraction of one at 10,000 (benchmarks/README.md,
  # "Strength"). A weaker search leaves more to the endgame solve, so this table asks
  # whether the solve adds anything where it has most room. A game that never ends (K-14)
  # is stopped by the arena at 10,000 actions and scored a draw (--max-actions, KRYT-7.7).
  table kryt-navalivat-2-expert-hard-2000 kryt-navalivat -p 2 \
    --bots "$KRYT_NAVALIVAT_EXPERT_2K,$KRYT_NAVALIVAT_HARD_2K" --games 1000 "${rate[@]}"
  table kryt-navalivat-2-hard-cheater-2000 kryt-navalivat -p 2 \
    --bots "$KRYT_NAVALIVAT_HARD_2K,$KRYT_NAVALIVAT_CHEATER_2K" --games 1000 "${rate[@]}"
  table kryt-navalivat-2-expert-cheater-2000 kryt-navalivat -p 2 \
    --bots "$KRYT_NAVALIVAT_EXPERT_2K,$KRYT_NAVALIVAT_CHEATER_2K" --games 1000 "${rate[@]}"
  ;;
14)
  # Kryt'-navalivat's expert may search for up to a second, time enough for five times
  # hard's 50,000 iterations (benchmarks/README.md, "Strength", has the timings). This
  # table keeps that ratio at a twenty-fifth of play's budget: expert at 10,000 iterations,
  # hard at 2,000. The rule written before the table started: if its paired interval
  # (expert minus hard, loss rate) lies below 0 when it ends, Kryt'-navalivat's expert
  # plays at 250,000 iterations; otherwise at hard's 50,000.
  table kryt-navalivat-2-expert-10000-hard-2000 kryt-navalivat -p 2 \
    --bots "$KRYT_NAVALIVAT_EXPERT,$KRYT_NAVALIVAT_HARD_2K" --games 1000 "${rate[@]}"
  # The cheater is hard's search with every card in view, at hard's budget here too.
  table kryt-navalivat-2-expert-10000-cheater-2000 kryt-navalivat -p 2 \
    --bots "$KRYT_NAVALIVAT_EXPERT,$KRYT_NAVALIVAT_CHEATER_2K" --games 1000 "${rate[@]}"
  ;;
15)
  # Queue 14's first table again, both budgets five times larger (a fifth of play's): does
  # five times the search still tell once both bots search more?
  table kryt-navalivat-2-expert-50000-hard-10000 kryt-navalivat -p 2 \
    --bots "pimc:deals=100,seconds=0.9,model=paranoid,iterations=50000,$KRYT_NAVALIVAT_HARD" \
    --games 1000 "${rate[@]}"
  ;;
16)
  # Knockout Whist: hard's search ending its rollouts with the estimate learnt by self-play
  # (rollout=learned, benchmarks/knockout_whist_values.py). The rule written before these
  # tables started: margin 0 (the two bots' intervals apart at all), 100 deals at least, at
  # most 1,800; if the first table ends with the learned search's paired interval above 0,
  # it becomes expert, and the second table, on deals of another seed that chose nothing,
  # is the table of record.
  table knockout-whist-3-learned-hard-seed2 knockout-whist -p 3 \
    --bots "ismcts:iterations=50000,seconds=0.9,rollout=learned,hard" --games 3600 \
    --stop-when-separated 0 --min-deals 100 --seed 2 --workers "${WORKERS:-1}"
  table knockout-whist-3-expert-learned-hard knockout-whist -p 3 --bots expert,hard \
    --games 3600 --stop-when-separated 0 --min-deals 100 --seed 3 --workers "${WORKERS:-1}"
  # The gap to perfect information, on the deals of knockout-whist-3-hard-cheater.
  table knockout-whist-3-expert-learned-cheater knockout-whist -p 3 --bots expert,cheater \
    --games 3600 "${rate[@]}"
  ;;
17)
  # Neuf: hard's search ending each rollout at the end of its trick with the network learnt
  # by self-play (rollout=learned, benchmarks/neuf_value_net.py), one deal a game. The rule
  # written before it started: margin 0, 100 deals at least, at most 600; if it ends with
  # the learned search's paired interval below 0 (fewer points a deal than the hard seats
  # beside it), the learned search becomes Neuf's expert and a second table, on deals of
  # another seed, is the table of record. (It ended at 600 deals with the learned search
  # behind both hard seats, so no second table was played.)
  table neuf-3-learned-hard-per-deal neuf -p 3 \
    --bots "ismcts:iterations=50000,seconds=0.9,rollout=learned,hard,hard" --games 1800 \
    --stop-when-separated 0 --min-deals 100 --seed 2 --workers "${WORKERS:-1}" --per-deal
  ;;
18|19)
  # Knockout Whist's gap to perfect information measured longer than queues 4 and 16 did
  # (their rule stopped both at 100 deals, which left the share of the gap closed at
  # +/-0.09): the same deals (--seed 2), no stopping rule, one queue a core.
  if [[ $1 == 18 ]]; then bots=hard,cheater; name=hard; else bots=expert,cheater; name=expert; fi
  table "knockout-whist-3-$name-cheater-long" knockout-whist -p 3 --bots "$bots" --games 1200 \
    --seed 2 --workers "${WORKERS:-1}"
  ;;
20)
  # Knockout Whist: expert's search on both cores (threads=2, two trees) at twice its
  # iterations, the same time a decision, against expert. No stopping rule: played for
  # three minutes on a borrowed 16-core machine (--workers 8) and reported as it stood.
  table knockout-whist-3-expert-2-threads-expert knockout-whist -p 3 \
    --bots "ismcts:iterations=100000,seconds=0.9,rollout=learned,threads=2,expert" \
    --games 3600 --seed 2 --workers "${WORKERS:-1}"
  ;;
21)
  # Kryt'-navalivat': expert against hard as they play (250,000 iterations and the endgame
  # solve against 50,000), the table queues 14 and 15 stood in for at a twenty-fifth and a
  # fifth of these budgets. Sized before it started: those tables' paired difference was
  # -0.53 and -0.45 (loss rate, expert minus hard) with about 0.6 a deal's spread, so 50
  # deals put the 95% interval's half-width near 0.17, and a game takes about 75 s of a core
  # here: 100 games, about 2 core-hours. The rule written before it started: margin 0.02,
  # at least 50 deals, at most 500 (1,000 games).
  table kryt-navalivat-2-expert-hard-play kryt-navalivat -p 2 --bots expert,hard \
    --games 1000 --stop-when-separated 0.02 --min-deals 50 --seed 2 --workers "${WORKERS:-1}"
  ;;
22)
  # Knockout Whist: expert's search with the learned policy prior (prior=1,
  # benchmarks/knockout_whist_prior.py) against expert. The rule written before it started:
  # margin 0, at least 100 deals, at most 600; if it ends with the prior's paired interval
  # above 0, the prior joins expert and a second table, on the deals of --seed 3, is the
  # table of record; otherwise the prior is dropped.
  table knockout-whist-3-prior-expert knockout-whist -p 3 \
    --bots "ismcts:iterations=50000,seconds=0.9,rollout=learned,prior=1,expert" --games 1800 \
    --stop-when-separated 0 --min-deals 100 --seed 2 --workers "${WORKERS:-1}"
  ;;
23)
  # The hint-following player (plays every hint, at the hint's budget: docs/hints.md)
  # against hard, in each game. Sized before it started, with no stopping rule: 400 games
  # a table, every deal played twice with the seats swapped (--duplicate), about 2.5
  # core-hours a table. The hints are at least as strong as hard if the paired interval's
  # lower end lies above -0.02 (win or loss rate) or -0.1 (Neuf's points a deal, lower is
  # better: the upper end below 0.1).
  follower=cardtable.bots.advice:HintFollower
  table knockout-whist-2-hints-hard knockout-whist -p 2 --bots "$follower,hard" \
    --games 400 --duplicate --seed 2 --workers "${WORKERS:-1}"
  table neuf-3-hints-hard-per-deal neuf -p 3 --bots "$follower,hard" \
    --games 400 --duplicate --per-deal --seed 2 --workers "${WORKERS:-1}"
  table kryt-navalivat-2-hints-hard kryt-navalivat -p 2 --bots "$follower,hard" \
    --games 400 --duplicate --seed 2 --workers "${WORKERS:-1}"
  ;;
24)
  # Queue 23's Neuf table again, the hints now valued by hard's search to the end of the
  # deal (PIMC's hints lost 0.28 points a deal to hard there): the same size, rule and
  # deals (seed 2), sized before it started. About an hour on one core.
  follower=cardtable.bots.advice:HintFollower
  table neuf-3-hints-by-deal-hard-per-deal neuf -p 3 --bots "$follower,hard" \
    --games 400 --duplicate --per-deal --seed 2 --workers "${WORKERS:-1}"
  ;;
25)
  # Queue 23's Knockout Whist table at 1,200 deals, on other deals (seed 3): at 200 its
  # interval (+0.040 [-0.031, +0.111]) was too wide for the rule. Sized before it started,
  # no stopping rule: 2,400 games, every deal twice with the seats swapped; the half-width
  # near 0.03 at 1,200 deals (a deal's spread about 0.5). The same rule: the paired
  # interval's lower end above -0.02. About an hour on one core (queue 23: 400 games in 9 minutes).
  follower=cardtable.bots.advice:HintFollower
  table knockout-whist-2-hints-hard-1200 knockout-whist -p 2 --bots "$follower,hard" \
    --games 2400 --duplicate --seed 3 --workers "${WORKERS:-1}"
  ;;
26)
  # Kryt'-navalivat''s hint-following player against hard's search at an equal search: the
  # table at play's budgets (the hint searches 0.9 s a move, about ten times hard's 50,000
  # iterations) would take about 30 hours, so this asks a smaller question, whether
  # playing the analysis's best (ties to the card kept least, the exact endgame) does as
  # well as the search's own choice from the same iterations: the hint 2,500 a round in
  # up to two rounds, the search 5,000, no clock. Sized before it started, no stopping
  # rule: 2,000 games, every deal twice with the seats swapped (1,000 deals, about 2 s a
  # game). The same rule as queue 23: the paired interval's lower end above -0.02.
  table kryt-navalivat-2-hints-2500-ismcts-5000 kryt-navalivat -p 2 \
    --bots "hints:iterations=2500,ismcts:iterations=5000" \
    --games 2000 --duplicate --seed 2 --workers "${WORKERS:-1}"
  ;;
27)
  # Neuf's hint-following player against hard's search at an equal search, hard's own:
  # the hint 25,000 iterations a round in up to two rounds, hard's search 50,000, no clock
  # (queue 24 gave the hint its 0.9 s, on a busy machine fewer iterations than hard's).
  # Sized before it started, no stopping rule: 1,200 games, one deal each, every deal
  # played with the seats rotated (about 2 s a deal); the interval's half-width near 0.06
  # points a deal at 600 deals. The same rule as queue 23: the upper end below +0.1.
  table neuf-3-hints-25000-ismcts-50000-per-deal neuf -p 3 \
    --bots "hints:iterations=25000,ismcts:iterations=50000" \
    --games 1200 --duplicate --per-deal --seed 3 --workers "${WORKERS:-1}"
  ;;
28)
  # Knockout Whist's hint-following player against hard, the table of record: queue 25's
  # 1,200 deals gave -0.002 [-0.030, +0.027], too wide for the rule. Sized before it
  # started, no stopping rule: 4,000 new deals (seed 4), every deal twice with the seats
  # swapped, 8,000 games. A deal's paired difference spreads about 0.50 (queue 25), so the
  # half-width is near 0.016; at a true difference of 0 the lower end lies above -0.02 with
  # a chance near 0.7, at +0.01 near 0.97. The same rule as queue 23. The hint's clock never
  # binds in two-player Knockout Whist (0.15 s at most, 400 deals), so the games depend on
  # the seed alone, on any number of workers. About 70 minutes on two cores.
  follower=cardtable.bots.advice:HintFollower
  table knockout-whist-2-hints-hard-4000 knockout-whist -p 2 --bots "$follower,hard" \
    --games 8000 --duplicate --seed 4 --workers "${WORKERS:-1}"
  ;;
29)
  # Queue 26 again with today's hint, whose tie among covers and leads (cards given to be
  # beaten) now goes to the highest value, not the lowest card: the same deals (seed 2),
  # size and rule, sized before it started, no stopping rule. About an hour on one core.
  table kryt-navalivat-2-hints-2500-ismcts-5000-covers kryt-navalivat -p 2 \
    --bots "hints:iterations=2500,ismcts:iterations=5000" \
    --games 2000 --duplicate --seed 2 --workers "${WORKERS:-1}"
  ;;
30)
  # Queue 29's question, the table of record: over 1,000 deals its interval (-0.018
  # [-0.062, +0.026]) was too wide for the rule. Sized before it started, no stopping rule:
  # 3,000 new deals (seed 5), every deal twice with the seats swapped, 6,000 games. A
  # deal's paired difference spreads about 0.71 (queue 29), so the half-width is near
  # 0.026; at a true difference of -0.018 the upper end lies below +0.02 with a chance near
  # 0.83, at 0 near 0.34. The same rule: the upper end of the fool's rate below +0.02. The
  # hint bounded by iterations alone, so the games depend on the seed alone, on any number
  # of workers. About three hours on two cores (games of about 3 s).
  table kryt-navalivat-2-hints-2500-ismcts-5000-3000 kryt-navalivat -p 2 \
    --bots "hints:iterations=2500,ismcts:iterations=5000" \
    --games 6000 --duplicate --seed 5 --workers "${WORKERS:-1}"
  ;;
esac
