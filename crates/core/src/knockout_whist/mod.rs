//! knockout-whist in the core (stub: being written).

use crate::chance::Seed;
use crate::game::{ActionMask, Game, OptionError, OptionValue, Returns, Stacked};
use crate::notation::PositionError;

#[derive(Clone, Debug)]
pub struct Options {
    pub players: usize,
    pub dealer: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct KnockoutWhist {
    players: usize,
}

impl Game for KnockoutWhist {
    type Options = Options;
    const NAME: &'static str = "knockout-whist";
    const NUM_ACTIONS: usize = 57;

    fn options(_pairs: &[(String, OptionValue)]) -> Result<Options, OptionError> {
        Err(OptionError("not yet in the core".into()))
    }
    fn options_players(options: &Options) -> usize {
        options.players
    }
    fn options_dealer(options: &Options) -> Option<usize> {
        options.dealer
    }
    fn begin(_o: &Options, _seed: Seed, _dealer: usize, _s: Stacked) -> Result<Self, OptionError> {
        Err(OptionError("not yet in the core".into()))
    }
    fn from_position(_o: &Options, _text: &str) -> Result<Self, PositionError> {
        Err(PositionError("not yet in the core".into()))
    }
    fn position(&self) -> String {
        String::new()
    }
    fn players(&self) -> usize {
        self.players
    }
    fn to_move(&self) -> Option<usize> {
        None
    }
    fn legal_mask(&self) -> ActionMask {
        0
    }
    fn apply(&mut self, _action: usize) {}
    fn returns(&self) -> Option<Returns> {
        None
    }
}
