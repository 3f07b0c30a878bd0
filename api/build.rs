//! Compiles the API again when the web app's build changes: `rust-embed` looks for `web/dist` when the crate is
//! compiled, so a debug build made before `npm run build -w web` would answer 503 for every page until then.

fn main() {
    println!("cargo:rerun-if-changed=../web/dist");
}
