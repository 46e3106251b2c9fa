//! Portolan router: reads graph artifacts and answers shortest-route queries. Compiled to
//! `wasm32-unknown-unknown` with the flat C ABI in [`ffi`]; the TypeScript binding is
//! router-wasm/binding/router.ts.

pub mod container;
pub mod ffi;
pub mod graph;
pub mod hierarchy;
pub mod landmarks;
pub mod metric;
pub mod packing;
pub mod path_json;
pub mod search;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_artifacts;
#[cfg(test)]
mod tests_hierarchy;
#[cfg(test)]
mod tests_hierarchy_paths;
#[cfg(test)]
mod tests_river;
#[cfg(test)]
mod tests_river_table;
#[cfg(test)]
mod tests_time_hierarchy;
