//! Equality with the Python engine, from a file of its random games and positions (an
//! ignored test: the file is made outside the test suite by running the Python engine).
//!
//! `KRYT_EQUALITY_FILE` names a JSON object with
//! - `games`: each `{options, seed, dealer, first, actions, checks, final, last, returns}`:
//!   the options as `make` took them, the seed (text), the first dealer, the first
//!   position, the action numbers played, and BLAKE2b-512 hash chains (first 16 bytes, hex)
//!   over the steps `"{position}|{to_move or -}|{legal ids, comma-separated}"`, one link
//!   per step, the chain's value kept every 64 steps (`checks`) and at the end (`final`),
//!   the last position and the returns;
//! - `positions`: position texts, some valid, most not, each `{options, text, ok}` with,
//!   when `ok`, the position Python writes back, `to_move` and `legal`, else `error`.
//!
//! Every game is replayed twice, from `begin` with the seed alone (the same deal as
//! `new_state(seed=…)`, KRYT-2) and from `from_position` of the first position; every
//! position is accepted or refused as Python does it, a refusal naming the same field.

use blake2::{Blake2b512, Digest};
use cardtable_core::game::{actions_of, first_dealer, Game, OptionValue, Stacked};
use cardtable_core::kryt_navalivat::Options;
use cardtable_core::KrytNavalivat;
use serde_json::Value;

const CHECK_EVERY: usize = 64;

fn options(o: &Value) -> Options {
    let mut pairs = Vec::new();
    for (k, v) in o.as_object().unwrap() {
        let value = match v {
            Value::Null => OptionValue::None,
            Value::Number(n) => OptionValue::Int(n.as_i64().unwrap()),
            Value::String(s) => OptionValue::Str(s.clone()),
            Value::Bool(b) => OptionValue::Bool(*b),
            _ => panic!("option {k}"),
        };
        pairs.push((k.clone(), value));
    }
    KrytNavalivat::options(&pairs).expect("options Python took")
}

fn step_text(state: &KrytNavalivat) -> String {
    let to_move = state.to_move().map_or("-".to_string(), |s| s.to_string());
    let legal: Vec<String> = actions_of(state.legal_mask())
        .iter()
        .map(|a| a.to_string())
        .collect();
    format!("{}|{to_move}|{}", state.position(), legal.join(","))
}

fn link(chain: &[u8], text: &str) -> Vec<u8> {
    Blake2b512::new()
        .chain_update(chain)
        .chain_update(text.as_bytes())
        .finalize()
        .to_vec()
}

fn hex16(bytes: &[u8]) -> String {
    bytes[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// Replays one game from `state`; the first difference is reported with its step.
fn replay(game: &Value, mut state: KrytNavalivat, from: &str) {
    let actions = game["actions"].as_array().unwrap();
    let checks = game["checks"].as_array().unwrap();
    let mut chain = Vec::new();
    for step in 0..=actions.len() {
        chain = link(&chain, &step_text(&state));
        if step % CHECK_EVERY == 0 {
            assert_eq!(
                hex16(&chain),
                checks[step / CHECK_EVERY].as_str().unwrap(),
                "{from}: seed {} differs by step {step} (last check {}): now {}",
                game["seed"],
                step / CHECK_EVERY * CHECK_EVERY,
                state.position()
            );
        }
        if step < actions.len() {
            let action = actions[step].as_u64().unwrap() as usize;
            assert!(state.legal_mask() >> action & 1 == 1, "{from}: step {step}");
            state.apply(action);
        }
    }
    assert_eq!(
        hex16(&chain),
        game["final"].as_str().unwrap(),
        "{from}: final"
    );
    assert_eq!(state.position(), game["last"].as_str().unwrap(), "{from}");
    let returns = state.returns().expect("over");
    let expected: Vec<f64> = game["returns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_f64().unwrap())
        .collect();
    assert_eq!(&returns[..state.players()], &expected[..], "{from}");
}

fn check_game(game: &Value) {
    let options = options(&game["options"]);
    let seed: i128 = game["seed"].as_str().unwrap().parse().unwrap();
    let dealer = first_dealer::<KrytNavalivat>(&options, seed);
    assert_eq!(
        dealer as u64,
        game["dealer"].as_u64().unwrap(),
        "dealer of seed {seed}"
    );
    let dealt = KrytNavalivat::begin(&options, seed, dealer, Stacked::default()).unwrap();
    let first = game["first"].as_str().unwrap();
    assert_eq!(dealt.position(), first, "the deal of seed {seed}");
    replay(game, dealt, "begin");
    let parsed = KrytNavalivat::from_position(&options, first).expect("the first position");
    replay(game, parsed, "from_position");
}

fn check_position(entry: &Value) -> Result<(), String> {
    let options = options(&entry["options"]);
    let text = entry["text"].as_str().unwrap();
    let got = KrytNavalivat::from_position(&options, text);
    match (entry["ok"].as_bool().unwrap(), got) {
        (true, Ok(state)) => {
            let legal: Vec<u64> = actions_of(state.legal_mask())
                .iter()
                .map(|&a| a as u64)
                .collect();
            let expected: Vec<u64> = entry["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect();
            if state.position() != entry["position"].as_str().unwrap()
                || legal != expected
                || state.to_move().map(|s| s as u64) != entry["to_move"].as_u64()
            {
                return Err(format!(
                    "read differently: {text}\n  core {}",
                    state.position()
                ));
            }
            Ok(())
        }
        (false, Err(e)) => {
            let python = entry["error"].as_str().unwrap();
            // Python quotes with repr, the core with Debug: the words must be the same.
            if e.0.replace('"', "'") != python.replace('"', "'") {
                return Err(format!("{text}\n  python: {python}\n  core:   {}", e.0));
            }
            Ok(())
        }
        (true, Err(e)) => Err(format!(
            "refused what Python accepts: {text}\n  core: {}",
            e.0
        )),
        (false, Ok(_)) => Err(format!(
            "accepted what Python refuses: {text}\n  python: {}",
            entry["error"]
        )),
    }
}

#[test]
#[ignore = "needs KRYT_EQUALITY_FILE, made by running the Python engine"]
fn kryt_core_equals_the_python_engine_on_its_random_games_and_positions() {
    let path = std::env::var("KRYT_EQUALITY_FILE").expect("KRYT_EQUALITY_FILE");
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let games = data["games"].as_array().unwrap();
    for game in games {
        check_game(game);
    }
    let positions = data["positions"].as_array().unwrap();
    let failures: Vec<String> = positions
        .iter()
        .filter_map(|p| check_position(p).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} positions differ:\n{}",
        failures.len(),
        positions.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    eprintln!(
        "{} games and {} positions agree",
        games.len(),
        positions.len()
    );
}
