//! Stage 5: what heatcap builds on a resolution. Resolution answers "what
//! does the environment pick"; the products answer the workflow's questions
//! with it: the choices a UI must offer ([`options`]), the parameters of
//! the chosen composition ([`parameters`]), Heat's own validate document
//! ([`heat_validate`]), and what stock Heat accepts ([`export`]).

pub(crate) mod catalogue;
pub(crate) mod diff;
pub(crate) mod export;
pub(crate) mod feeds;
pub(crate) mod heat_validate;
pub(crate) mod interface;
pub(crate) mod options;
pub(crate) mod parameters;
pub(crate) mod preview;
