//! Builds the crate again when a migration is added or changed: `sqlx::migrate!` embeds the migrations folders
//! as it compiles, and cargo would not look at them again by itself.

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
