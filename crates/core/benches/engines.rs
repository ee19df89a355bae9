//! The core's own micro-benchmarks, per game: legal-move generation, apply, a seat's
//! observation, and a whole random game (deal included). `cargo bench -p cardtable-core`.

use std::hint::black_box;

use cardtable_core::game::{self, new_game, Game, OptionValue, PlayoutRng};
use cardtable_core::{KnockoutWhist, KrytNavalivat, Neuf, Observe};
use criterion::{criterion_group, criterion_main, Criterion};
use rand::SeedableRng;

/// States met along 64 seeded random games: what legal-move generation and apply see.
fn midgame_states<G: Game>(options: &G::Options) -> Vec<G> {
    let mut states = Vec::new();
    for seed in 0..64 {
        let mut state: G = new_game(options, seed);
        let mut rng = PlayoutRng::seed_from_u64(seed as u64);
        while state.to_move().is_some() {
            states.push(state.clone());
            let action = state.random_action(&mut rng);
            state.apply(action);
        }
    }
    states
}

fn bench_game<G: Observe>(c: &mut Criterion, label: &str, pairs: &[(String, OptionValue)]) {
    let options = G::options(pairs).expect("benchmark options are valid");
    let states: Vec<G> = midgame_states(&options);
    let mut group = c.benchmark_group(label);
    group.bench_function("legal_mask", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % states.len();
            black_box(states[i].legal_mask())
        })
    });
    let moves: Vec<(G, usize)> = states
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mask = s.legal_mask();
            (
                s.clone(),
                game::nth_action(mask, i as u32 % mask.count_ones()),
            )
        })
        .collect();
    group.bench_function("clone_and_apply", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % moves.len();
            let (state, action) = &moves[i];
            let mut next = state.clone();
            next.apply(*action);
            black_box(next.to_move())
        })
    });
    group.bench_function("observe", |b| {
        let players = states[0].players();
        let mut out = vec![0.0f32; G::observation_size(players)];
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % states.len();
            states[i].observe(i % players, &mut out);
            black_box(out[i % out.len()])
        })
    });
    group.bench_function("random_game", |b| {
        let mut seed = 0i128;
        b.iter(|| {
            seed += 1;
            black_box(game::random_games::<G>(&options, &[seed]).decisions)
        })
    });
    group.finish();
}

fn players(n: i64) -> Vec<(String, OptionValue)> {
    cardtable_core::options::pairs(&[("players", OptionValue::Int(n))])
}

fn engines(c: &mut Criterion) {
    bench_game::<KnockoutWhist>(c, "knockout-whist/3", &players(3));
    bench_game::<KnockoutWhist>(c, "knockout-whist/5", &players(5));
    bench_game::<Neuf>(c, "neuf/3", &players(3));
    bench_game::<Neuf>(c, "neuf/4", &players(4));
    bench_game::<KrytNavalivat>(c, "kryt-navalivat/2", &players(2));
    bench_game::<KrytNavalivat>(c, "kryt-navalivat/4", &players(4));
}

criterion_group!(benches, engines);
criterion_main!(benches);
