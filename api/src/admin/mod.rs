//! The operator console's API (B §2.15, issue 22), for administrators only (the `Admin` extractor on every handler):
//! accounts and invites (`accounts`), the suppression list, queue jobs, campaigns, senders, searches and the audit
//! log (`operations`). Listings speak ra-data-simple-rest's dialect: `sort=["field","ASC"]`, `range=[0,24]`,
//! `filter={...}` in, `Content-Range: <resource> 0-24/<total>` out. Every change is written with its audit entry.

mod accounts;
mod listing;
mod operations;

use utoipa_axum::router::OpenApiRouter;

use crate::AppState;
use crate::openapi::{Access, with_access};

/// The endpoints of this module, for administrators (outside the account gate).
pub fn routes() -> OpenApiRouter<AppState> {
    with_access(
        accounts::routes().merge(operations::routes()),
        Access::Admin,
    )
}
