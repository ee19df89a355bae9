//! Every game's action texts (SPEC §0.2 card notation; the action tables of
//! `docs/<game>.md`): each number's text reads back to it, the spellings Python accepts
//! read the same, and bad text is refused.

use cardtable_core::game::ActionError;
use cardtable_core::{Game, KnockoutWhist, KrytNavalivat, Neuf};

fn round_trips<G: Game>() {
    for number in 0..G::NUM_ACTIONS {
        let text = G::action_text(number);
        assert_eq!(G::parse_action(&text), Ok(number), "{text}");
        let shouted = format!(" {} ", text.to_uppercase().replace("10", "T"));
        assert_eq!(G::parse_action(&shouted), Ok(number), "{shouted}");
    }
    for bad in ["", "play", "fold", "play 7D now"] {
        assert!(
            matches!(G::parse_action(bad), Err(ActionError::Action(_))),
            "{bad:?}"
        );
    }
    // A card that is not one is the card's fault, as Python's InvalidCardError says.
    let verb = G::action_text(0)
        .split(' ')
        .next()
        .unwrap_or("")
        .to_string();
    assert!(matches!(
        G::parse_action(&format!("{verb} 1X")),
        Err(ActionError::Card(_))
    ));
}

#[test]
fn knockout_whist_actions() {
    round_trips::<KnockoutWhist>();
    assert_eq!(KnockoutWhist::action_text(0), "play 2C");
    assert_eq!(KnockoutWhist::action_text(54), "trump H");
    assert_eq!(KnockoutWhist::action_text(56), "knock");
    // KOW's aliases: lead for play, suit symbols.
    assert_eq!(KnockoutWhist::parse_action("lead 10♠"), Ok(47));
    assert_eq!(KnockoutWhist::parse_action("trump ♦"), Ok(53));
}

#[test]
fn neuf_actions() {
    round_trips::<Neuf>();
    assert_eq!(Neuf::action_text(52), "exchange");
    assert_eq!(Neuf::action_text(53), "keep");
    assert_eq!(Neuf::parse_action("play qh"), Ok(36));
}

#[test]
fn kryt_navalivat_actions() {
    round_trips::<KrytNavalivat>();
    assert_eq!(KrytNavalivat::action_text(0), "lead 6C");
    assert_eq!(KrytNavalivat::action_text(108), "take");
    // KRYT-1: the 36-card pack has no fives.
    assert!(KrytNavalivat::parse_action("lead 5C").is_err());
}
