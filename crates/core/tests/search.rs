//! SO-ISMCTS in the core (`search.rs`) over Neuf and Kryt'-navalivat', whose states write
//! their seats' views here: an iteration budget is spent exactly, shared between threads
//! (root parallel), and the same seed gives the same search; bad settings and a seat whose
//! turn it is not are refused before anything runs. The cheater's search (`search_seeing`)
//! plays the true deal alone. (The contract against the Python search
//! is held from Python, `tests/core/test_core_search.py`.)

use cardtable_core::game::{new_game, Determinize, Game, OptionValue, PlayoutRng};
use cardtable_core::rollout::Guided;
use cardtable_core::search::{
    search, search_seeing, Budget, Found, Rollout, SearchError, Settings,
};
use cardtable_core::{KrytNavalivat, Neuf};
use rand::SeedableRng;

/// A view the core wrote, as JSON.
fn written<T: serde::Serialize>(view: &T) -> serde_json::Value {
    serde_json::to_value(view).expect("a view is JSON")
}

fn settings(iterations: u64, rollout: Rollout, threads: usize) -> Settings {
    Settings {
        budget: Budget {
            iterations: Some(iterations),
            seconds: None,
        },
        exploration: 0.7,
        stop_early: false,
        rollout,
        threads,
        inference: None,
        prior: 0.0,
    }
}

fn players(n: i64) -> Vec<(String, OptionValue)> {
    vec![("players".to_string(), OptionValue::Int(n))]
}

/// The first state of a seeded game with a choice to make (random actions until then).
fn decision<G: Game>(options: &G::Options, seed: u64) -> G {
    let mut state: G = new_game(options, seed as i128);
    let mut rng = PlayoutRng::seed_from_u64(seed);
    while state.legal_mask().count_ones() < 2 {
        let action = state.random_action(&mut rng);
        state.apply(action);
    }
    state
}

fn run<G: Determinize + Guided>(knowledge: &G::Knowledge, seed: u64, settings: &Settings) -> Found {
    search::<G>(knowledge, &mut PlayoutRng::seed_from_u64(seed), settings).expect("it searches")
}

fn check_budgets<G: Determinize + Guided>(knowledge: &G::Knowledge, legal: u128) {
    for rollout in [Rollout::Guided, Rollout::Uniform] {
        for threads in [1, 2, 3] {
            let found = run::<G>(knowledge, 5, &settings(301, rollout, threads));
            assert_eq!(found.iterations, 301);
            assert_eq!(
                found.visits.iter().map(|&(_, v)| u64::from(v)).sum::<u64>(),
                301
            );
            assert!(legal >> found.action & 1 == 1);
            assert!(found.visits.iter().all(|&(a, _)| legal >> a & 1 == 1));
            let most = found.visits.iter().map(|&(_, v)| v).max().unwrap();
            assert_eq!(
                found
                    .visits
                    .iter()
                    .find(|&&(a, _)| a == found.action)
                    .unwrap()
                    .1,
                most
            );
            let again = run::<G>(knowledge, 5, &settings(301, rollout, threads));
            assert_eq!((again.action, &again.visits), (found.action, &found.visits));
        }
        let one = run::<G>(knowledge, 5, &settings(301, rollout, 1));
        let two = run::<G>(knowledge, 5, &settings(301, rollout, 2));
        assert_ne!(one.visits, two.visits, "two trees from other generators");
    }
}

#[test]
fn neuf_budgets_are_spent_and_shared_between_threads() {
    let options = Neuf::options(&players(3)).unwrap();
    for seed in 0..3 {
        let state: Neuf = decision(&options, seed);
        let seat = state.to_move().unwrap();
        let knowledge = Neuf::knowledge(&options, &written(&state.view(Some(seat)))).unwrap();
        check_budgets::<Neuf>(&knowledge, state.legal_mask());
    }
}

#[test]
fn kryt_navalivat_budgets_are_spent_and_shared_between_threads() {
    let options = KrytNavalivat::options(&players(2)).unwrap();
    for seed in 0..3 {
        let state: KrytNavalivat = decision(&options, seed);
        let seat = state.to_move().unwrap();
        let knowledge =
            KrytNavalivat::knowledge(&options, &written(&state.view(Some(seat)))).unwrap();
        check_budgets::<KrytNavalivat>(&knowledge, state.legal_mask());
    }
}

#[test]
fn bad_settings_and_other_turns_are_refused() {
    let options = KrytNavalivat::options(&players(3)).unwrap();
    let state: KrytNavalivat = decision(&options, 1);
    let seat = state.to_move().unwrap();
    let knowledge = KrytNavalivat::knowledge(&options, &written(&state.view(Some(seat)))).unwrap();
    let mut rng = PlayoutRng::seed_from_u64(0);
    let no_thread = settings(10, Rollout::Guided, 0);
    assert!(matches!(
        search::<KrytNavalivat>(&knowledge, &mut rng, &no_thread),
        Err(SearchError::Settings(why)) if why.contains("threads")
    ));
    let mut none = settings(10, Rollout::Guided, 1);
    none.budget.iterations = None;
    assert!(matches!(
        search::<KrytNavalivat>(&knowledge, &mut rng, &none),
        Err(SearchError::Settings(why)) if why.contains("budget")
    ));
    let other = (seat + 1) % 3;
    let theirs = KrytNavalivat::knowledge(&options, &written(&state.view(Some(other)))).unwrap();
    assert!(matches!(
        search::<KrytNavalivat>(&theirs, &mut rng, &settings(10, Rollout::Guided, 1)),
        Err(SearchError::NotTheTurn(_))
    ));
}

#[test]
fn seeing_search_plays_the_true_deal_alone() {
    let options = KrytNavalivat::options(&players(2)).unwrap();
    let settings = settings(2000, Rollout::Guided, 1);
    let mut told_apart = 0;
    for seed in 0..4 {
        let state: KrytNavalivat = decision(&options, seed);
        let seat = state.to_move().unwrap();
        let knowledge =
            KrytNavalivat::knowledge(&options, &written(&state.view(Some(seat)))).unwrap();
        // Two deals the seat cannot tell apart, from what it knows.
        let deals: Vec<KrytNavalivat> = (0..2)
            .map(|i| KrytNavalivat::sample(&knowledge, &mut PlayoutRng::seed_from_u64(90 + i)))
            .collect();
        let seen: Vec<Found> = deals
            .iter()
            .map(|deal| {
                search_seeing(deal, &mut PlayoutRng::seed_from_u64(7), &settings)
                    .expect("it searches")
            })
            .collect();
        for (deal, found) in deals.iter().zip(&seen) {
            assert_eq!(found.iterations, 2000);
            assert!(deal.legal_mask() >> found.action & 1 == 1);
            let again = search_seeing(deal, &mut PlayoutRng::seed_from_u64(7), &settings).unwrap();
            assert_eq!((again.action, &again.visits), (found.action, &found.visits));
        }
        // The seat's own search cannot tell them apart; the seeing search sees each deal.
        told_apart += usize::from(seen[0].values != seen[1].values);
    }
    assert!(
        told_apart >= 3,
        "the seeing search told {told_apart} of 4 pairs apart"
    );
    let mut over: KrytNavalivat = decision(&options, 0);
    let mut rng = PlayoutRng::seed_from_u64(1);
    while over.to_move().is_some() {
        let action = over.random_action(&mut rng);
        over.apply(action);
    }
    assert!(matches!(
        search_seeing(&over, &mut rng, &settings),
        Err(SearchError::NotTheTurn(_))
    ));
}
