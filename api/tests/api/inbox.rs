//! The unified inbox (issue 34): a reply that arrives by SendGrid's Inbound Parse is a conversation in the inbox,
//! opened (and so read) with every message both ways and the AI's reading; answered from the app through the
//! thread's sender, threaded, to the prospect only; labelled (the contact's interest, the campaign's meetings); paged
//! by a keyset cursor; another user's conversation answers 404 and bad input a 4xx, changing nothing.

use super::responses::{MailedCampaign, first_email, mailed_campaign};
use super::*;

/// Café `i`'s owner answers the first email by mail, through SendGrid's Inbound Parse.
async fn answered_by_mail(app: &TestApp, firsts: &[(String, String)], i: usize, body: &str) {
    let raw = format!(
        "From: owner{i}@cafe{i}.example\r\nTo: ada@bakery.example\r\nSubject: Re: Hi Cafe {i}\r\n\
         Message-ID: <reply-{i}@cafe{i}.example>\r\nIn-Reply-To: <{}>\r\n\r\n{body}\r\n",
        first_email(firsts, i)
    );
    let form = reqwest::multipart::Form::new()
        .text("to", "ada@bakery.example")
        .text("email", raw);
    let answer: Value = reqwest::Client::new()
        .post(format!(
            "{}/api/webhooks/sendgrid/inbound/in-secret",
            app.base
        ))
        .multipart(form)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer["kind"], "reply");
}

/// The inbox's first page once every listed conversation's latest reply is read by the AI and its answer drafted
/// (the draft is written a moment after the reading).
async fn read_inbox(ada: &Browser, path: &str, expected: usize) -> Value {
    let mut page = Value::Null;
    for _ in 0..200 {
        page = ada.get_json(path).await.1;
        let threads = page["threads"].as_array().cloned().unwrap_or_default();
        let ready =
            |thread: &Value| !thread["reading"].is_null() && thread["awaitingApproval"] == true;
        if threads.len() == expected && threads.iter().all(ready) {
            return page;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("{expected} conversations read at {path}: {page}");
}

/// Mail the sink received with this text.
async fn delivered(
    sink: &outreach_core::testing::SmtpSink,
    needle: &str,
    count: usize,
) -> Vec<String> {
    let mut found = Vec::new();
    for _ in 0..200 {
        found = sink
            .messages()
            .into_iter()
            .filter(|message| message.contains(needle))
            .collect();
        if found.len() >= count {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    found
}

#[tokio::test]
async fn a_reply_is_a_conversation_read_and_answered_in_the_thread_by_its_owner_only() {
    each_backend(|test_db| async move {
        let MailedCampaign { sink, app, ada, firsts, _workers } = mailed_campaign(test_db, json!({})).await;
        answered_by_mail(&app, &firsts, 0, "Interested! Do you deliver on Saturdays?").await;

        // In the inbox within the poll that brought it: unread, with the AI's reading and its waiting draft.
        let page = read_inbox(&ada, "/api/inbox/threads", 1).await;
        let listed = &page["threads"][0];
        assert_eq!(listed["prospect"], "owner0@cafe0.example", "{listed}");
        assert_eq!(listed["subject"], "Hi Cafe 0", "{listed}");
        assert_eq!(listed["campaignName"], "Breads", "{listed}");
        assert_eq!((listed["unread"].as_bool(), listed["replies"].as_i64()), (Some(true), Some(1)), "{listed}");
        assert!(listed["excerpt"].as_str().unwrap().contains("deliver on Saturdays"), "{listed}");
        assert_eq!(listed["awaitingApproval"], true, "{listed}");
        assert_eq!(page["nextCursor"], Value::Null);
        let id = listed["id"].as_i64().unwrap();
        let (_, waiting) = ada.get_json("/api/inbox/threads?filter=awaiting").await;
        assert_eq!(waiting["threads"].as_array().unwrap().len(), 1, "{waiting}");
        let (_, found) = ada.get_json("/api/inbox/threads?q=SATURDAYS").await;
        assert_eq!(found["threads"].as_array().unwrap().len(), 1, "found by the reply's words: {found}");
        let (_, none) = ada.get_json("/api/inbox/threads?q=50%25_off").await;
        assert_eq!(none["threads"], json!([]), "{none}");

        // Another user sees none of it and touches nothing.
        let eve = active(&app, "eve").await;
        assert_eq!(eve.get_json("/api/inbox/threads").await.1["threads"], json!([]));
        let thread = format!("/api/inbox/threads/{id}");
        assert_eq!(eve.get_json(&thread).await.0, StatusCode::NOT_FOUND);
        assert_eq!(eve.patch_json(&thread, json!({ "label": "interested" })).await.0, StatusCode::NOT_FOUND);
        assert_eq!(eve.post_json(&format!("{thread}/reply"), json!({ "body": "<p>Hi</p>" })).await.0, StatusCode::NOT_FOUND);
        assert_eq!(eve.post_json(&format!("{thread}/draft"), Value::Null).await.0, StatusCode::NOT_FOUND);
        // Bad input: a clear 4xx, nothing written.
        for (path, message) in [
            ("/api/inbox/threads?filter=vip", "filter must be unread, interested, awaiting or escalated"),
            ("/api/inbox/threads?label=vip", "label must be interested, meeting_booked, not_interested, wrong_person or out_of_office"),
            ("/api/inbox/threads?cursor=abc", "The cursor is not valid"),
        ] {
            let (status, refused) = ada.get_json(path).await;
            assert_eq!((status, refused["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some(message)), "{path}");
        }
        let (status, refused) = ada.post_json(&format!("{thread}/reply"), json!({ "body": " <p> </p> " })).await;
        assert_eq!((status, refused["message"].as_str()), (StatusCode::UNPROCESSABLE_ENTITY, Some("The answer must not be empty")));
        let (status, _) = ada.post_json(&format!("{thread}/reply"), json!({ "body": "x".repeat(20_001) })).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(ada.patch_json(&thread, json!({ "label": "vip" })).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(ada.patch_json(&thread, json!({})).await.0, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(ada.get_json("/api/inbox/threads").await.1["threads"][0]["unread"], true, "a refusal marks nothing");

        // Opened: every message in order, both ways, with the AI's reading; now read.
        let (status, view) = ada.get_json(&thread).await;
        assert_eq!(status, StatusCode::OK, "{view}");
        let kinds: Vec<(&str, &str)> = view["messages"].as_array().unwrap().iter()
            .map(|message| (message["direction"].as_str().unwrap(), message["kind"].as_str().unwrap())).collect();
        assert_eq!(kinds, [("sent", "first"), ("received", "reply")], "{view}");
        let reply = &view["messages"][1];
        assert_eq!((reply["reading"]["sentiment"].as_str(), reply["reading"]["action"].as_str()), (Some("positive"), Some("reply")), "{reply}");
        assert_eq!(reply["answer"]["status"], "awaiting_approval", "{reply}");
        assert_eq!(view["thread"]["unread"], false);
        assert_eq!(ada.get_json("/api/inbox/threads?filter=unread").await.1["threads"], json!([]));

        // A draft to start from, then the user's own answer: through the thread's sender, to the prospect, threaded.
        let (status, draft) = ada.post_json(&format!("{thread}/draft"), Value::Null).await;
        assert_eq!(status, StatusCode::OK, "{draft}");
        assert_eq!(draft["writer"], "offline");
        assert!(!draft["body"].as_str().unwrap().trim().is_empty(), "{draft}");
        let (status, queued) = ada.post_json(&format!("{thread}/reply"),
            json!({ "body": "<p>Yes, on Saturdays before eight.</p><script>x()</script>" })).await;
        assert_eq!((status, queued["status"].as_str()), (StatusCode::OK, Some("queued")), "{queued}");
        let answers = delivered(&sink, "Saturdays before eight", 1).await;
        assert_eq!(answers.len(), 1, "the answer arrived once");
        let answer = &answers[0];
        assert!(answer.contains("To: owner0@cafe0.example") && answer.contains("Subject: Re: Hi Cafe 0"), "{answer}");
        assert!(answer.contains("In-Reply-To: <reply-0@cafe0.example>"), "{answer}");
        assert!(answer.contains(&format!("References: <{}> <reply-0@cafe0.example>", first_email(&firsts, 0))), "{answer}");
        assert!(!answer.contains("x()"), "{answer}");
        // Issue 83.8: the answer by hand retired the AI's waiting draft, so no click can answer a second time.
        let answer_id = reply["answer"]["id"].as_i64().unwrap();
        let (status, refused) = ada.post_json(&format!("/api/email-responses/answers/{answer_id}/approve"), Value::Null).await;
        assert_eq!(status, StatusCode::CONFLICT, "{refused}");
        let (_, view) = ada.get_json(&thread).await;
        let reply = view["messages"].as_array().unwrap().iter().find(|message| message["kind"] == "reply").unwrap();
        assert_eq!((reply["answer"]["status"].as_str(), reply["answer"]["why"].as_str()), (Some("discarded"), Some("answered by hand")), "{view}");
        assert_eq!(view["thread"]["awaitingApproval"], false, "{view}");
        assert_eq!(ada.get_json("/api/inbox/threads?filter=awaiting").await.1["threads"], json!([]));
        workers_idle(&app).await;
        assert_eq!(delivered(&sink, "Subject: Re: Hi Cafe 0", 1).await.len(), 1, "one answer went out");
        let answers: Vec<i64> = view["messages"].as_array().unwrap().iter()
            .filter(|message| message["kind"] == "answer")
            .map(|message| message["step"].as_i64().unwrap()).collect();
        assert_eq!(answers, [1], "the one answer by hand: {view}");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn labels_set_the_contacts_interest_and_the_campaigns_meetings_and_pages_follow_the_cursor() {
    each_backend(|test_db| async move {
        let MailedCampaign {
            app,
            ada,
            firsts,
            _workers,
            ..
        } = mailed_campaign(test_db, json!({})).await;
        answered_by_mail(&app, &firsts, 0, "Sounds good, call me on Tuesday.").await;
        answered_by_mail(&app, &firsts, 1, "Could you tell me your prices first?").await;
        let page = read_inbox(&ada, "/api/inbox/threads", 2).await;
        // The latest reply first, one page at a time.
        let (_, first) = ada.get_json("/api/inbox/threads?limit=1").await;
        assert_eq!(
            first["threads"][0]["prospect"], "owner1@cafe1.example",
            "{first}"
        );
        let cursor = first["nextCursor"]
            .as_str()
            .expect("a next page")
            .to_string();
        let (_, second) = ada
            .get_json(&format!("/api/inbox/threads?limit=1&cursor={cursor}"))
            .await;
        assert_eq!(
            second["threads"][0]["prospect"], "owner0@cafe0.example",
            "{second}"
        );
        assert_eq!(second["nextCursor"], Value::Null);
        // A search pages the same way, whether its page is found among the newest threads or through the indexes.
        let (_, found) = ada.get_json("/api/inbox/threads?q=CAFE&limit=1").await;
        assert_eq!(
            found["threads"][0]["prospect"], "owner1@cafe1.example",
            "{found}"
        );
        let cursor = found["nextCursor"]
            .as_str()
            .expect("a next page")
            .to_string();
        let (_, older) = ada
            .get_json(&format!(
                "/api/inbox/threads?q=CAFE&limit=1&cursor={cursor}"
            ))
            .await;
        assert_eq!(
            older["threads"][0]["prospect"], "owner0@cafe0.example",
            "{older}"
        );
        assert_eq!(older["nextCursor"], Value::Null, "{older}");
        let (_, prices) = ada.get_json("/api/inbox/threads?q=prices").await;
        let prospects: Vec<&Value> = prices["threads"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| &t["prospect"])
            .collect();
        assert_eq!(prospects, [&json!("owner1@cafe1.example")], "{prices}");
        let id = |i: usize| {
            page["threads"]
                .as_array()
                .unwrap()
                .iter()
                .find(|thread| thread["prospect"] == format!("owner{i}@cafe{i}.example"))
                .unwrap()["id"]
                .as_i64()
                .unwrap()
        };

        // A meeting booked: the contact is interested, and the campaign counts it.
        let (status, labelled) = ada
            .patch_json(
                &format!("/api/inbox/threads/{}", id(0)),
                json!({ "label": "meeting_booked" }),
            )
            .await;
        assert_eq!(
            (status, labelled["label"].as_str()),
            (StatusCode::OK, Some("meeting_booked")),
            "{labelled}"
        );
        let (_, booked) = ada
            .get_json("/api/inbox/threads?label=meeting_booked")
            .await;
        assert_eq!(booked["threads"].as_array().unwrap().len(), 1);
        // Wrong person: not interested.
        assert_eq!(
            ada.patch_json(
                &format!("/api/inbox/threads/{}", id(1)),
                json!({ "label": "wrong_person" })
            )
            .await
            .0,
            StatusCode::OK
        );
        let (_, contacts) = ada.get_json("/api/contacts/all").await;
        let interest = |i: usize| {
            contacts
                .as_array()
                .unwrap()
                .iter()
                .find(|contact| contact["email"] == format!("owner{i}@cafe{i}.example"))
                .unwrap()["interest"]
                .clone()
        };
        assert_eq!(
            (interest(0), interest(1)),
            (json!("interested"), json!("not_interested")),
            "{contacts}"
        );
        let (_, analytics) = ada.get_json("/api/analytics/campaigns").await;
        let breads = analytics
            .as_array()
            .unwrap()
            .iter()
            .find(|campaign| campaign["name"] == "Breads")
            .unwrap()
            .clone();
        assert_eq!(breads["summary"]["meetingsBooked"], 1, "{breads}");

        // Done leaves the inbox for the done list; unread brings it back in bold; the label comes off with null.
        let thread = format!("/api/inbox/threads/{}", id(1));
        assert_eq!(
            ada.patch_json(&thread, json!({ "done": true })).await.0,
            StatusCode::OK
        );
        let (_, open) = ada.get_json("/api/inbox/threads").await;
        assert_eq!(open["threads"].as_array().unwrap().len(), 1, "{open}");
        let (_, done) = ada.get_json("/api/inbox/threads?done=true").await;
        assert_eq!(done["threads"][0]["id"], id(1), "{done}");
        let (status, changed) = ada
            .patch_json(&thread, json!({ "read": false, "label": null }))
            .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(
            (changed["unread"].as_bool(), changed["label"].clone()),
            (Some(true), Value::Null),
            "{changed}"
        );
        app.stop().await;
    })
    .await;
}
