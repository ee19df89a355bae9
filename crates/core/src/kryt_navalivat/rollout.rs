//! The guided rollout of search (`cardtable.bots.kryt_navalivat_rollout`): TO BE PORTED.

use super::KrytNavalivat;
use crate::game::Returns;
use crate::rollout::{Draw, Guided};

impl Guided for KrytNavalivat {
    fn guided_action<D: Draw>(&self, _draw: &mut D) -> usize {
        todo!("port cardtable.bots.kryt_navalivat_rollout")
    }

    fn guided_rollout<D: Draw>(&mut self, _draw: &mut D) -> Returns {
        todo!("port cardtable.bots.kryt_navalivat_rollout")
    }
}
