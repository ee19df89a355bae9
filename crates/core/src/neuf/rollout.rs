//! The guided rollout of search (`cardtable.bots.neuf_rollout`): TO BE PORTED.

use super::Neuf;
use crate::game::Returns;
use crate::rollout::{Draw, Guided};

impl Guided for Neuf {
    fn guided_action<D: Draw>(&self, _draw: &mut D) -> usize {
        todo!("port cardtable.bots.neuf_rollout")
    }

    fn guided_rollout<D: Draw>(&mut self, _draw: &mut D) -> Returns {
        todo!("port cardtable.bots.neuf_rollout")
    }
}
