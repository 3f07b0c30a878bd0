//! Campaigns the API tests send: to a number of imported cafes, launched or not, and in the format campaigns had
//! before issue 81.

use super::*;

/// A campaign sent through the local outbox to `count` imported cafes (owner{i}@cafe{i}.example).
pub struct SentCampaign {
    pub campaign: Value,
    pub template: Value,
    /// The imported businesses.
    pub businesses: Value,
    /// The outbox listing after the send.
    pub outbox: Value,
}

/// A campaign to `count` cafes sent as campaigns were before issue 81: HTML with the open pixel and tracked links.
pub async fn sent_campaign(browser: &Browser, name: &str, count: usize) -> SentCampaign {
    let ready = campaign_to_cafes(browser, name, count).await;
    html_and_tracking(browser, &ready.campaign).await;
    let (_, progress) = launch_and_finish(browser, ready.launch).await;
    assert_eq!(progress["progress"]["sent"], count, "{progress}");
    let (_, outbox) = browser.get_json("/api/outbox").await;
    SentCampaign {
        campaign: ready.campaign,
        template: ready.template,
        businesses: ready.businesses,
        outbox,
    }
}

/// A new campaign, a template and `count` imported cafes (owner{i}@cafe{i}.example), not launched yet.
pub struct CampaignToCafes {
    pub campaign: Value,
    pub template: Value,
    pub businesses: Value,
    /// The body that launches it (`POST /api/campaigns/send`).
    pub launch: Value,
}

pub async fn campaign_to_cafes(browser: &Browser, name: &str, count: usize) -> CampaignToCafes {
    let (_, template) = browser.post_json("/api/email-templates", json!({
        "name": "Hi", "subject": "Hi {{businessName}}", "objective": "Partnership Proposal", "tone": "friendly",
        "emailSignature": "Ada", "body": "<p>Hello [business name]</p>"
    })).await;
    let csv: String = std::iter::once("name,email\n".to_string())
        .chain((0..count).map(|i| format!("Cafe {i},owner{i}@cafe{i}.example\n")))
        .collect();
    let (_, imported) = browser
        .upload("/api/businesses/import", "leads.csv", csv.into_bytes())
        .await;
    let business_ids: Vec<Value> = imported["businesses"]
        .as_array()
        .unwrap_or_else(|| panic!("{imported}"))
        .iter()
        .map(|b| b["id"].clone())
        .collect();
    let (_, campaign) = browser
        .post_json("/api/campaigns", json!({ "name": name }))
        .await;
    let launch = json!({
        "campaignId": campaign["id"], "templateId": template["id"], "businessIds": business_ids
    });
    CampaignToCafes {
        campaign,
        template,
        businesses: imported["businesses"].clone(),
        launch,
    }
}

/// Turns a campaign back to how campaigns sent before issue 81 (and those made then still do): HTML with the open
/// pixel and tracked links. New campaigns send plain text without tracking.
pub async fn html_and_tracking(browser: &Browser, campaign: &Value) {
    let id = campaign["id"]
        .as_i64()
        .unwrap_or_else(|| panic!("a campaign: {campaign}"));
    let (status, saved) = browser
        .put_json(
            &format!("/api/campaigns/{id}"),
            json!({ "plainText": false, "trackOpens": true, "trackClicks": true }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{saved}");
}
