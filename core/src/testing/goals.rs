//! The benchmarks' figures against the goals of issue 32, one line each, for `make bench` to gather into its closing
//! table (`scripts/bench-table.sh`). A benchmark prints its own detail as before; these lines are the summary. Also
//! how a benchmark reads its sizes and settings from the environment (`BENCH_MESSAGES=100000`).

/// A benchmark's number from the environment variable `name`: None when it is unset or not a number.
pub fn env_setting<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
}

/// What a figure must be.
#[derive(Debug, Clone, Copy)]
pub enum Goal {
    AtLeast(f64),
    AtMost(f64),
    /// Measured and recorded, with no target of its own.
    None,
}

/// Prints `GOAL|id|what|figure|goal|verdict`: `id` names the item (S1, S3...), `what` the figure and the
/// database it was taken on.
pub fn report(id: &str, what: &str, value: f64, unit: &str, goal: Goal) {
    let shown = |figure: f64| {
        if unit.is_empty() {
            format!("{figure:.2}")
        } else {
            format!("{figure:.1} {unit}")
        }
    };
    let (target, verdict) = match goal {
        Goal::AtLeast(target) => (format!("≥ {}", shown(target)), value >= target),
        Goal::AtMost(target) => (format!("≤ {}", shown(target)), value <= target),
        Goal::None => (String::from("—"), true),
    };
    let verdict = match (goal, verdict) {
        (Goal::None, _) => "recorded",
        (_, true) => "met",
        (_, false) => "MISSED",
    };
    println!("GOAL|{id}|{what}|{}|{target}|{verdict}", shown(value));
}
