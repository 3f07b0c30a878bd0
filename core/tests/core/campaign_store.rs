//! Store conformance of campaigns and templates, on SQLite and (with `TEST_DATABASE_URL`) PostgreSQL: each store
//! method behaves the same on each backend.

use outreach_core::testing::each_backend;
use outreach_core::writing::generations::GenerationStatus;

#[tokio::test]
async fn campaign_and_template_store_conformance() {
    use outreach_core::campaigns::store::NewCampaign;
    use outreach_core::campaigns::templates::{FollowUpInput, TemplateInput};
    use outreach_core::campaigns::{CampaignPatch, EducationFile};

    each_backend(|test_db| async move {
        let db = &test_db.db;
        let backend = db.backend();
        let now = 1_800_000_000_000;
        let owner = db
            .accounts()
            .upsert_user_on_sign_in("ada@example.org", None, None, now)
            .await
            .unwrap()
            .id;
        let other = db
            .accounts()
            .upsert_user_on_sign_in("eve@example.org", None, None, now)
            .await
            .unwrap()
            .id;

        let new = NewCampaign {
            name: "Cafés",
            status: outreach_core::campaigns::CampaignStatus::Draft,
            business_type: None,
            geographic_area: Some("Helsinki"),
            radius: 25,
            max_results: 50,
            window: &"mon-fri 08:00-18:00".parse().unwrap(),
        };
        let id = db
            .campaigns()
            .insert_campaign(owner, &new, now)
            .await
            .unwrap();
        let mut campaign = db
            .campaigns()
            .find_campaign(id, owner)
            .await
            .unwrap()
            .expect("own campaign");
        assert_eq!(
            (
                campaign.geographic_area.as_deref(),
                campaign.emails_sent,
                campaign.business_ids.as_str()
            ),
            (Some("Helsinki"), 0, "[]")
        );
        assert_eq!(
            db.campaigns().find_campaign(id, other).await.unwrap(),
            None,
            "{backend}: owner only"
        );
        assert_eq!(
            campaign.window.window().view().days,
            ["mon", "tue", "wed", "thu", "fri"]
        );
        let window = outreach_core::platform::window::SendingWindowView {
            days: vec!["sat".into()],
            start: "09:30".into(),
            end: "12:00".into(),
            time_zone: "Europe/Helsinki".into(),
        };
        CampaignPatch {
            business_ids: Some(vec![1, 2]),
            status: Some("businesses_selected".into()),
            sending_window: Some(window.clone()),
            ..Default::default()
        }
        .apply(&mut campaign, false)
        .unwrap();
        assert!(
            db.campaigns()
                .update_campaign(&campaign, now + 1)
                .await
                .unwrap()
        );
        let stored = db
            .campaigns()
            .list_campaigns(owner)
            .await
            .unwrap()
            .remove(0);
        assert_eq!(stored.business_id_list(), vec![1, 2]);
        assert_eq!(stored.window.window().view(), window, "{backend}");
        let sending = db.sending().campaign_sending_settings(id).await.unwrap();
        assert_eq!(sending.window.window().view(), window, "{backend}");
        assert!(
            db.campaigns()
                .list_campaigns(other)
                .await
                .unwrap()
                .is_empty()
        );

        let file = EducationFile {
            name: "about.pdf".into(),
            size_bytes: 10,
            extracted_text: "Since 1989.".into(),
        };
        db.campaigns()
            .upsert_education_file(id, &file, now)
            .await
            .unwrap();
        db.campaigns()
            .upsert_education_file(
                id,
                &EducationFile {
                    extracted_text: "Replaced.".into(),
                    ..file.clone()
                },
                now,
            )
            .await
            .unwrap();
        assert_eq!(
            db.campaigns().list_education_files(id).await.unwrap()[0].extracted_text,
            "Replaced.",
            "{backend}: same name replaces"
        );
        db.campaigns()
            .delete_education_file(id, "about.pdf")
            .await
            .unwrap();
        assert!(
            db.campaigns()
                .list_education_files(id)
                .await
                .unwrap()
                .is_empty()
        );

        let content = TemplateInput {
            name: Some("Intro".into()),
            subject: Some("Hi".into()),
            body: Some("<p>Hi</p>".into()),
            ..Default::default()
        }
        .validate()
        .unwrap();
        let template = db
            .campaigns()
            .insert_template(owner, &content, now)
            .await
            .unwrap();
        assert_eq!(
            db.campaigns()
                .find_template(template, owner)
                .await
                .unwrap()
                .unwrap()
                .tone,
            "professional"
        );
        assert_eq!(
            db.campaigns().find_template(template, other).await.unwrap(),
            None
        );
        assert!(
            !db.campaigns()
                .update_template(template, other, &content, now)
                .await
                .unwrap(),
            "{backend}: not another user's"
        );
        assert!(
            db.campaigns()
                .update_template(template, owner, &content, now)
                .await
                .unwrap()
        );

        let follow = |n: i32| {
            FollowUpInput {
                subject: Some(format!("F{n}")),
                body: Some("<p>x</p>".into()),
                ..Default::default()
            }
            .validate(n)
            .unwrap()
        };
        let first = db
            .campaigns()
            .insert_follow_up(template, owner, &follow(1), now)
            .await
            .unwrap()
            .expect("position 1 is free");
        assert_eq!(
            db.campaigns()
                .insert_follow_up(template, owner, &follow(1), now)
                .await
                .unwrap(),
            None,
            "{backend}: a position is held once"
        );
        assert!(
            db.campaigns()
                .sync_follow_ups(template, owner, &[follow(1), follow(2), follow(3)], now)
                .await
                .unwrap()
        );
        let listed = db
            .campaigns()
            .list_follow_ups(template, owner)
            .await
            .unwrap();
        assert_eq!(
            (listed.len(), listed[0].id),
            (3, first),
            "{backend}: updated by position"
        );
        assert!(
            !db.campaigns()
                .sync_follow_ups(template, other, &[], now)
                .await
                .unwrap()
        );
        assert_eq!(
            db.campaigns()
                .update_follow_up(first, owner, &follow(1), now)
                .await
                .unwrap(),
            Some(true)
        );
        assert_eq!(
            db.campaigns()
                .update_follow_up(first, owner, &follow(2), now)
                .await
                .unwrap(),
            None,
            "{backend}: moving onto a taken position is refused"
        );
        assert!(
            db.campaigns()
                .find_follow_up(first, other)
                .await
                .unwrap()
                .is_none()
        );
        assert!(db.campaigns().delete_follow_up(first, owner).await.unwrap());
        assert_eq!(
            db.writing()
                .own_results(owner, "Lead Generation", "professional")
                .await
                .unwrap(),
            (0, 0, 0)
        );

        let generation = db
            .writing()
            .insert_generation(owner, "{}", now)
            .await
            .unwrap();
        assert_eq!(
            db.writing()
                .load_generation(generation)
                .await
                .unwrap()
                .unwrap()
                .status,
            GenerationStatus::Pending
        );
        assert!(
            db.writing()
                .finish_generation(
                    generation,
                    GenerationStatus::Done,
                    Some("{\"subject\":\"x\"}"),
                    None,
                    now
                )
                .await
                .unwrap()
        );
        assert!(
            !db.writing()
                .finish_generation(
                    generation,
                    GenerationStatus::Failed,
                    None,
                    Some("late"),
                    now
                )
                .await
                .unwrap(),
            "{backend}: finished once"
        );
        assert_eq!(
            db.writing()
                .find_generation(generation, owner)
                .await
                .unwrap()
                .unwrap()
                .status,
            GenerationStatus::Done
        );
        assert!(
            db.writing()
                .find_generation(generation, other)
                .await
                .unwrap()
                .is_none()
        );

        assert!(
            db.campaigns()
                .delete_template(template, owner)
                .await
                .unwrap()
        );
        assert!(
            db.campaigns()
                .list_follow_ups(template, owner)
                .await
                .unwrap()
                .is_empty(),
            "{backend}: follow-ups go with the template"
        );
        assert!(!db.campaigns().delete_campaign(id, other).await.unwrap());
        assert!(db.campaigns().delete_campaign(id, owner).await.unwrap());
        test_db.cleanup().await;
    })
    .await;
}
