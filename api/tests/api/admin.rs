//! The operator console's API (issue 22): every `/api/admin` operation refuses users who are not administrators;
//! listings speak ra-data-simple-rest's dialect (sort, range, filter, `Content-Range`); each change writes its audit
//! entry with the record before and after, and a refused or empty change writes none.

use super::*;

/// A listing's records and its `Content-Range`.
async fn listing(browser: &Browser, path: &str) -> (StatusCode, Value, String) {
    let response = browser.get(path).await;
    let status = response.status();
    let range = response
        .headers()
        .get("content-range")
        .map(|value| value.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, response.json().await.unwrap_or(Value::Null), range)
}

fn query(sort: &str, range: &str, filter: &str) -> String {
    let encode =
        |text: &str| url::form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>();
    format!(
        "sort={}&range={}&filter={}",
        encode(sort),
        encode(range),
        encode(filter)
    )
}

async fn audit(admin: &Browser) -> Vec<Value> {
    let (status, entries, _) = listing(admin, "/api/admin/audit?range=[0,99]").await;
    assert_eq!(status, StatusCode::OK, "{entries}");
    entries.as_array().unwrap().clone()
}

/// Marks a job failed as the worker would after its last attempt.
async fn fail_job(app: &TestApp, id: &str) {
    let sql = match app.ctx.db.backend() {
        "postgres" => {
            "update apalis.jobs set status = 'Failed', attempts = 1, last_result = '{\"Err\":\"boom\"}' where id = $1"
        }
        _ => {
            "update Jobs set status = 'Failed', attempts = 1, last_result = '{\"Err\":\"boom\"}' where id = $1"
        }
    };
    outreach_core::on_db!(&app.ctx.db, pool => sqlx::query(sql).bind(id).execute(pool).await.map(|_| ()))
        .unwrap();
}

#[tokio::test]
async fn every_admin_operation_refuses_users_who_are_not_administrators() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let admin = app.signed_in("boss", ADMIN, "Boss").await;
        let ada = active(&app, "ada").await;
        let anonymous = app.browser();
        let (_, document) = anonymous.get_json("/api/openapi.json").await;
        let mut tried = 0;
        for (path, item) in document["paths"].as_object().unwrap() {
            if !path.starts_with("/api/admin") {
                continue;
            }
            let concrete = path.replace("{id}", "1").replace("{email}", "ada@example.org");
            for method in item.as_object().unwrap().keys() {
                let method = reqwest::Method::from_bytes(method.to_uppercase().as_bytes()).unwrap();
                for (who, expected) in [(&ada, StatusCode::FORBIDDEN), (&anonymous, StatusCode::UNAUTHORIZED)] {
                    let request = who.http.request(method.clone(), who.url(&concrete)).json(&json!({
                        "email": "ada@example.org", "status": "premium", "emailLimit": 5, "action": "deactivate",
                        "reason": "test", "jobType": "ExpireSubscriptions"
                    }));
                    let status = who.send(request).await.status();
                    assert_eq!(status, expected, "{method} {path}");
                }
                tried += 1;
            }
        }
        assert!(tried >= 20, "every operation of the console is tried ({tried})");
        assert_eq!(audit(&admin).await, Vec::<Value>::new(), "refusals write no audit entry");
        assert_eq!(ada.get_json("/api/auth/user").await.1["accountStatus"], "active");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn users_are_sorted_paged_and_filtered_in_the_data_providers_dialect() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let admin = app.signed_in("boss", ADMIN, "Boss").await;
        app.signed_in("ada", "ada@example.org", "Ada").await;
        let grace = app.signed_in("grace", "grace@example.org", "Grace").await;
        let lin = app.signed_in("lin", "lin@example.org", "Lin").await;
        for (email, status) in [
            ("grace@example.org", "free_trial"),
            ("lin@example.org", "premium"),
        ] {
            let (code, answer) = admin
                .post_json(
                    "/api/admin/set-user-status",
                    json!({ "email": email, "status": status, "emailLimit": 700 }),
                )
                .await;
            assert_eq!(code, StatusCode::OK, "{answer}");
        }
        let emails = |records: &Value| -> Vec<String> {
            records
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["email"].as_str().unwrap().to_string())
                .collect()
        };

        let (status, first, range) = listing(
            &admin,
            &format!(
                "/api/admin/users?{}",
                query(r#"["email","ASC"]"#, "[0,1]", "{}")
            ),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            (emails(&first), range.as_str()),
            (
                vec!["ada@example.org".into(), "boss@example.org".into()],
                "users 0-1/4"
            )
        );
        let (_, second, range) = listing(
            &admin,
            &format!(
                "/api/admin/users?{}",
                query(r#"["email","ASC"]"#, "[2,3]", "{}")
            ),
        )
        .await;
        assert_eq!(
            (emails(&second), range.as_str()),
            (
                vec!["grace@example.org".into(), "lin@example.org".into()],
                "users 2-3/4"
            )
        );
        let (_, descending, _) = listing(
            &admin,
            &format!(
                "/api/admin/users?{}",
                query(r#"["email","DESC"]"#, "[0,0]", "{}")
            ),
        )
        .await;
        assert_eq!(emails(&descending), vec!["lin@example.org".to_string()]);
        let (_, by_limit, _) = listing(
            &admin,
            &format!(
                "/api/admin/users?{}",
                query(r#"["emailLimit","DESC"]"#, "[0,0]", "{}")
            ),
        )
        .await;
        assert_eq!(
            by_limit[0]["emailLimit"], 2500,
            "the administrator's limit is the highest"
        );

        for (filter, expected) in [
            (r#"{"group":"waiting"}"#, vec!["ada@example.org"]),
            (r#"{"group":"trial"}"#, vec!["grace@example.org"]),
            (r#"{"group":"premium"}"#, vec!["lin@example.org"]),
            (r#"{"group":"administrators"}"#, vec!["boss@example.org"]),
            (r#"{"group":"expired"}"#, vec![]),
            (r#"{"q":"GRA"}"#, vec!["grace@example.org"]),
            (r#"{"q":"lin","group":"trial"}"#, vec![]),
        ] {
            let (status, records, range) = listing(
                &admin,
                &format!(
                    "/api/admin/users?{}",
                    query(r#"["email","ASC"]"#, "[0,9]", filter)
                ),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{filter}");
            assert_eq!(emails(&records), expected, "{filter}");
            assert!(
                range.ends_with(&format!("/{}", expected.len())),
                "{filter}: {range}"
            );
        }
        let row = &listing(
            &admin,
            &format!(
                "/api/admin/users?{}",
                query(r#"["email","ASC"]"#, "[0,9]", r#"{"q":"lin"}"#)
            ),
        )
        .await
        .1[0];
        assert_eq!(
            (
                row["name"].as_str(),
                row["subscriptionPlan"].as_str(),
                row["emailLimit"].as_i64(),
                row["emailsUsed"].as_i64()
            ),
            (Some("Lin Tester"), Some("premium"), Some(700), Some(0)),
            "{row}"
        );
        assert!(
            is_time(&row["subscriptionEndsAt"]) && is_time(&row["lastLoginAt"]),
            "{row}"
        );

        for bad in [
            query(r#"["password","ASC"]"#, "[0,9]", "{}"),
            query(r#"["email","UP"]"#, "[0,9]", "{}"),
            query(r#"["email","ASC"]"#, "[9,0]", "{}"),
            query(r#"["email","ASC"]"#, "[0,9]", r#"{"group":"vip"}"#),
            query(r#"["email","ASC"]"#, "[0,9]", "[]"),
        ] {
            assert_eq!(
                listing(&admin, &format!("/api/admin/users?{bad}")).await.0,
                StatusCode::BAD_REQUEST,
                "{bad}"
            );
        }

        // A user's page: usage, campaigns and senders.
        let (_, campaign) = lin
            .post_json("/api/campaigns", json!({ "name": "Lin's cafés" }))
            .await;
        let id = row["id"].as_i64().unwrap();
        let (status, detail) = admin.get_json(&format!("/api/admin/users/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            (
                detail["email"].as_str(),
                detail["isAdministrator"].as_bool()
            ),
            (Some("lin@example.org"), Some(false))
        );
        assert_eq!(detail["campaigns"][0]["id"], campaign["id"]);
        assert_eq!(detail["senders"], json!([]));
        assert_eq!(
            admin.get_json("/api/admin/users/999999").await.0,
            StatusCode::NOT_FOUND
        );
        drop(grace);

        // The other listings take the same dialect.
        for (resource, sort) in [
            ("campaigns", "name"),
            ("senders", "provider"),
            ("searches", "searchTerm"),
            ("jobs", "jobType"),
            ("audit", "action"),
            ("invites", "createdAt"),
            ("unsubscribes", "createdAt"),
        ] {
            let (status, records, range) = listing(
                &admin,
                &format!(
                    "/api/admin/{resource}?{}",
                    query(&format!(r#"["{sort}","DESC"]"#), "[0,4]", "{}")
                ),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{resource} {records}");
            assert!(
                range.starts_with(&format!("{resource} 0-")),
                "{resource}: {range}"
            );
        }
        let (_, campaigns, range) = listing(
            &admin,
            &format!(
                "/api/admin/campaigns?{}",
                query(r#"["name","ASC"]"#, "[0,9]", r#"{"q":"lin@"}"#)
            ),
        )
        .await;
        assert_eq!(
            (campaigns[0]["userEmail"].as_str(), range.as_str()),
            (Some("lin@example.org"), "campaigns 0-0/1")
        );
        app.stop().await;
    })
    .await;
}

/// Issue 33.2: the console's Activate lets a new sign-up in, as `set-user-status free_trial` does: access and the
/// trial's limit, seen through what the user then gets. An account that has a live grant keeps it.
#[tokio::test]
async fn activate_lets_the_user_in_as_a_free_trial_grant_does() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let admin = app.signed_in("boss", ADMIN, "Boss").await;
        let bea = app.signed_in("bea", "bea@example.org", "Bea").await;
        assert_eq!(
            bea.get_json("/api/email-usage").await.0,
            StatusCode::FORBIDDEN,
            "a new sign-up waits"
        );
        let id = app
            .ctx
            .db
            .accounts()
            .find_user_by_email("bea@example.org")
            .await
            .unwrap()
            .unwrap()
            .id;
        let (status, changed) = admin
            .post_json(
                &format!("/api/admin/users/{id}/actions"),
                json!({ "action": "activate" }),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{changed}");
        let (status, usage) = bea.get_json("/api/email-usage").await;
        assert_eq!(status, StatusCode::OK, "{usage}");
        let trial = app.ctx.settings.accounts.trial_email_limit;
        assert_eq!(usage["limit"], json!(trial), "{usage}");
        assert_eq!(
            changed["user"]["subscriptionPlan"], "free_trial",
            "{changed}"
        );

        // Premium, deactivated, activated again: the premium grant stays.
        admin
            .post_json(
                &format!("/api/admin/users/{id}/actions"),
                json!({ "action": "premium", "emailLimit": 700 }),
            )
            .await;
        for step in ["deactivate", "activate"] {
            let (status, _) = admin
                .post_json(
                    &format!("/api/admin/users/{id}/actions"),
                    json!({ "action": step }),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{step}");
        }
        assert_eq!(bea.get_json("/api/email-usage").await.1["limit"], 700);
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn account_actions_write_their_audit_entry_and_refusals_write_none() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let admin = app.signed_in("boss", ADMIN, "Boss").await;
        let ada = app.signed_in("ada", "ada@example.org", "Ada").await;
        let id = app
            .ctx
            .db
            .accounts()
            .find_user_by_email("ada@example.org")
            .await
            .unwrap()
            .unwrap()
            .id;
        let action = |body: Value| {
            let admin = &admin;
            async move {
                admin
                    .post_json(&format!("/api/admin/users/{id}/actions"), body)
                    .await
            }
        };

        let (status, changed) = action(json!({ "action": "premium", "emailLimit": "250" })).await;
        assert_eq!(status, StatusCode::OK, "{changed}");
        assert_eq!(
            changed["message"],
            "User ada@example.org has been granted premium access with 250 emails for 30 days"
        );
        assert_eq!(
            (
                changed["user"]["subscriptionPlan"].as_str(),
                changed["user"]["emailLimit"].as_i64()
            ),
            (Some("premium"), Some(250))
        );
        assert_eq!(
            ada.get_json("/api/email-usage").await.1["limit"],
            250,
            "the user has the grant at once"
        );
        let entries = audit(&admin).await;
        assert_eq!(entries.len(), 1);
        let entry = &entries[0];
        assert_eq!(
            (
                entry["actor"].as_str(),
                entry["action"].as_str(),
                entry["targetType"].as_str(),
                entry["targetId"].as_str()
            ),
            (
                Some(ADMIN),
                Some("user.premium"),
                Some("user"),
                Some("ada@example.org")
            )
        );
        let before: Value = serde_json::from_str(entry["before"].as_str().unwrap()).unwrap();
        let after: Value = serde_json::from_str(entry["after"].as_str().unwrap()).unwrap();
        assert_eq!(
            (
                before["accountStatus"].as_str(),
                before["subscriptionPlan"].clone()
            ),
            (Some("inactive"), Value::Null)
        );
        assert_eq!(
            (
                after["accountStatus"].as_str(),
                after["emailLimit"].as_i64()
            ),
            (Some("active"), Some(250))
        );

        let ends = || async {
            app.ctx
                .db
                .accounts()
                .find_user(id)
                .await
                .unwrap()
                .unwrap()
                .subscription_ends_at
                .unwrap()
        };
        let before_extend = ends().await;
        let (status, extended) = action(json!({ "action": "extend", "days": 10 })).await;
        assert_eq!(
            (status, extended["message"].as_str()),
            (
                StatusCode::OK,
                Some("User ada@example.org's access has been extended by 10 days")
            )
        );
        assert_eq!(ends().await - before_extend, 10 * DAY_MS);
        let (status, limited) = action(json!({ "action": "limit", "emailLimit": 900 })).await;
        assert_eq!(
            (status, limited["user"]["emailLimit"].as_i64()),
            (StatusCode::OK, Some(900))
        );
        let (status, _) = action(json!({ "action": "deactivate" })).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            ada.get_json("/api/email-usage").await.0,
            StatusCode::FORBIDDEN,
            "a deactivated account is gated"
        );
        assert_eq!(audit(&admin).await.len(), 4);

        // Already so, refused, or out of range: nothing written.
        assert_eq!(
            action(json!({ "action": "deactivate" })).await.0,
            StatusCode::OK
        );
        for (body, message) in [
            (
                json!({ "action": "limit", "emailLimit": 0 }),
                "Email limit must be a positive number",
            ),
            (
                json!({ "action": "premium" }),
                "Email limit must be a positive number",
            ),
            (
                json!({ "action": "extend", "days": 0 }),
                "Days must be a whole number from 1 to 366",
            ),
            (
                json!({ "action": "explode" }),
                "Action must be activate, deactivate, free_trial, premium, limit or extend",
            ),
        ] {
            let (status, refused) = action(body.clone()).await;
            assert_eq!(
                (status, refused["message"].as_str()),
                (StatusCode::UNPROCESSABLE_ENTITY, Some(message)),
                "{body}"
            );
        }
        assert_eq!(
            admin
                .post_json(
                    "/api/admin/users/999999/actions",
                    json!({ "action": "activate" })
                )
                .await
                .0,
            StatusCode::NOT_FOUND
        );
        let entries = audit(&admin).await;
        assert_eq!(entries.len(), 4, "no entry without a change");
        assert_eq!(entries[0]["action"], "user.deactivate", "newest first");

        // B §2.15's grant by email is audited the same way, and the log filters by action.
        admin
            .post_json(
                "/api/admin/set-user-status",
                json!({ "email": "new@example.org", "status": "free_trial" }),
            )
            .await;
        let (_, trials, range) = listing(
            &admin,
            &format!(
                "/api/admin/audit?{}",
                query(
                    r#"["createdAt","DESC"]"#,
                    "[0,9]",
                    r#"{"action":"user.free_trial"}"#
                )
            ),
        )
        .await;
        assert_eq!(
            (
                trials[0]["targetId"].as_str(),
                trials[0]["before"].clone(),
                range.as_str()
            ),
            (Some("new@example.org"), Value::Null, "audit 0-0/1")
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn invites_suppressions_jobs_and_campaigns_are_managed_with_an_audit_entry_each() {
    each_backend(|test_db| async move {
        let app = TestApp::start(test_db).await;
        let admin = app.signed_in("boss", ADMIN, "Boss").await;
        let ada = active(&app, "ada").await;

        // Invites: created with a note, revoked once, then never redeemed.
        let (_, invite) = admin.post_json("/api/admin/invites", json!({ "note": "for Grace" })).await;
        let revoke = format!("/api/admin/invites/{}/revoke", invite["id"]);
        let (status, revoked) = admin.post_json(&revoke, json!({})).await;
        assert_eq!((status, is_time(&revoked["revokedAt"])), (StatusCode::OK, true), "{revoked}");
        assert_eq!(admin.post_json(&revoke, json!({})).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        let grant = outreach_core::accounts::Grant::FreeTrial.subscription(app.clock.now_ms(), &app.ctx.settings.accounts);
        let redeemed = app.ctx.db.accounts().redeem_invite(invite["code"].as_str().unwrap(), "grace@example.org", 0, &grant, app.clock.now_ms()).await.unwrap();
        assert_eq!(redeemed, outreach_core::accounts::store::Redemption::UnknownOrUsed, "a revoked code is refused");
        // Found by its note or its code, in pages, oldest first when asked.
        let (_, second) = admin.post_json("/api/admin/invites", json!({ "note": "for the bakery" })).await;
        assert_eq!(admin.post_json("/api/admin/invites", json!({ "note": "x".repeat(201) })).await.1["message"], "The note must be at most 200 characters");
        let (_, found, range) = listing(&admin, &format!("/api/admin/invites?{}", query(r#"["createdAt","DESC"]"#, "[0,9]", r#"{"q":"BAKERY"}"#))).await;
        assert_eq!((found.as_array().unwrap().len(), found[0]["id"].clone(), range.as_str()), (1, second["id"].clone(), "invites 0-0/1"));
        let code = invite["code"].as_str().unwrap().to_lowercase();
        let (_, found, _) = listing(&admin, &format!("/api/admin/invites?{}", query(r#"["id","ASC"]"#, "[0,9]", &format!(r#"{{"q":"{code}"}}"#)))).await;
        assert_eq!(found[0]["id"], invite["id"]);
        let (_, page, range) = listing(&admin, &format!("/api/admin/invites?{}", query(r#"["id","ASC"]"#, "[1,1]", "{}"))).await;
        assert_eq!((page[0]["id"].clone(), range.as_str()), (second["id"].clone(), "invites 1-1/2"));

        // The suppression list: added with a reason, found, removed only with a reason.
        let (status, added) = admin.post_json("/api/admin/unsubscribes", json!({ "email": " Spam@Example.org ", "reason": "asked by phone" })).await;
        assert_eq!((status, added["id"].as_str(), added["source"].as_str()), (StatusCode::CREATED, Some("spam@example.org"), Some("admin")));
        assert_eq!(admin.post_json("/api/admin/unsubscribes", json!({ "email": "spam@example.org" })).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(admin.post_json("/api/admin/unsubscribes", json!({ "email": "nope" })).await.1["message"], "Please enter a valid email address");
        let (_, found, range) = listing(&admin, &format!("/api/admin/unsubscribes?{}", query(r#"["createdAt","DESC"]"#, "[0,9]", r#"{"q":"spam"}"#))).await;
        assert_eq!((found[0]["id"].as_str(), range.as_str()), (Some("spam@example.org"), "unsubscribes 0-0/1"));
        let remove = |reason: &str| {
            let request = admin.http.delete(admin.url("/api/admin/unsubscribes/spam@example.org")).json(&json!({ "reason": reason }));
            let admin = &admin;
            async move {
                let response = admin.send(request).await;
                (response.status(), response.json::<Value>().await.unwrap())
            }
        };
        let (status, refused) = remove(" ").await;
        assert_eq!((status, refused["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("Please give a reason for removing this address")));
        assert!(app.ctx.db.sending().find_unsubscribe("spam@example.org").await.unwrap().is_some(), "a refusal removes nothing");
        assert_eq!(remove("the owner asked again").await.0, StatusCode::OK);
        assert!(app.ctx.db.sending().find_unsubscribe("spam@example.org").await.unwrap().is_none());
        assert_eq!(remove("again").await.0, StatusCode::NOT_FOUND);

        // Jobs: a failed one is shown and retried, a queued one cancelled, every failed one of a kind retried.
        let enqueue = |tick: &str| {
            let job = outreach_core::platform::jobs::ExpireSubscriptions { tick: tick.into() };
            let queue = app.ctx.queue.clone();
            async move { queue.enqueue(job, None).await.unwrap() }
        };
        enqueue("one").await;
        let (_, jobs, _) = listing(&admin, &format!("/api/admin/jobs?{}", query(r#"["runAt","DESC"]"#, "[0,9]", r#"{"jobType":"ExpireSubscriptions"}"#))).await;
        let id = jobs[0]["id"].as_str().unwrap().to_string();
        assert_eq!(admin.post_json(&format!("/api/admin/jobs/{id}/retry"), json!({})).await.0, StatusCode::UNPROCESSABLE_ENTITY, "only failed jobs");
        fail_job(&app, &id).await;
        let (status, failed, range) = listing(&admin, &format!("/api/admin/jobs?{}", query(r#"["runAt","DESC"]"#, "[0,9]", r#"{"status":"failed"}"#))).await;
        assert_eq!(status, StatusCode::OK, "{failed}");
        assert_eq!((failed[0]["id"].as_str(), range.as_str()), (Some(id.as_str()), "jobs 0-0/1"));
        assert!(failed[0]["lastResult"].as_str().unwrap().contains("boom"), "{failed}");
        let (status, shown) = admin.get_json(&format!("/api/admin/jobs/{id}")).await;
        assert!(status == StatusCode::OK && shown["payload"].as_str().unwrap().contains("one"), "{shown}");
        let (status, retried) = admin.post_json(&format!("/api/admin/jobs/{id}/retry"), json!({})).await;
        assert_eq!((status, retried["action"].as_str()), (StatusCode::OK, Some("job.retry")), "{retried}");
        assert!(retried["before"].as_str().unwrap().contains("Failed") && retried["after"].as_str().unwrap().contains("Pending"), "{retried}");
        let (status, cancelled) = admin.post_json(&format!("/api/admin/jobs/{id}/cancel"), json!({})).await;
        assert_eq!((status, cancelled["after"].as_str().map(|a| a.contains("Killed"))), (StatusCode::OK, Some(true)), "{cancelled}");
        assert_eq!(admin.post_json(&format!("/api/admin/jobs/{id}/cancel"), json!({})).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(admin.post_json("/api/admin/jobs/retry-failed", json!({ "jobType": "Nope" })).await.1["message"], "Unknown job kind Nope");
        let (_, answer) = admin.post_json("/api/admin/jobs/retry-failed", json!({ "jobType": "ExpireSubscriptions" })).await;
        assert_eq!(answer["message"], "Every failed ExpireSubscriptions job is back in the queue", "a cancelled job counts");
        let (_, answer) = admin.post_json("/api/admin/jobs/retry-failed", json!({ "jobType": "ExpireSubscriptions" })).await;
        assert_eq!(answer["message"], "No ExpireSubscriptions job had failed");

        // Campaigns: an administrator pauses a sending campaign of any user and resumes it.
        let (_, campaign) = ada.post_json("/api/campaigns", json!({ "name": "Cafés" })).await;
        let campaign_id = campaign["id"].as_i64().unwrap();
        let pause = format!("/api/admin/campaigns/{campaign_id}/pause");
        assert_eq!(admin.post_json(&pause, json!({})).await.1["message"], "Only a campaign that is sending can be paused");
        outreach_core::on_db!(&app.ctx.db, pool => sqlx::query("update campaigns set status = 'active' where id = $1")
            .bind(campaign_id).execute(pool).await.map(|_| ())).unwrap();
        let (status, paused) = admin.post_json(&pause, json!({})).await;
        assert_eq!((status, paused["status"].as_str(), paused["pausedByUser"].as_bool()), (StatusCode::OK, Some("paused"), Some(true)));
        let (_, owned) = ada.get_json(&format!("/api/campaigns/{campaign_id}")).await;
        assert_eq!(owned["status"], "paused");
        assert!(paused["statusReason"].as_str().unwrap().starts_with("Paused by the operator"), "{paused}");
        let (status, resumed) = admin.post_json(&format!("/api/admin/campaigns/{campaign_id}/resume"), json!({})).await;
        assert!(status == StatusCode::OK && resumed["status"] != "paused", "{resumed}");
        assert_eq!(admin.get_json("/api/admin/campaigns/999999").await.0, StatusCode::NOT_FOUND);

        let actions: Vec<String> = audit(&admin).await.iter().map(|e| e["action"].as_str().unwrap().to_string()).collect();
        assert_eq!(actions, ["campaign.resume", "campaign.pause", "job.retry_failed", "job.cancel", "job.retry",
            "unsubscribe.remove", "unsubscribe.add", "invite.create", "invite.revoke", "invite.create"], "one entry a change, newest first");
        let removal = audit(&admin).await.into_iter().find(|e| e["action"] == "unsubscribe.remove").unwrap();
        assert_eq!((removal["reason"].as_str(), removal["after"].clone()), (Some("the owner asked again"), Value::Null));
        app.stop().await;
    })
    .await;
}
