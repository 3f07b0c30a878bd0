//! The LLM clients against local fake providers (wiremock) that check each request: model, messages, the JSON
//! schema, credentials; and every failure's mapping to the composer's messages.

use outreach_core::platform::config::{AiProvider, AiSettings, Secret};
use outreach_core::writing::ai::writer::Writer;
use outreach_core::writing::ai::{AiError, Brief, Draft, Material};
use serde_json::{Value, json};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

fn brief() -> Brief {
    Brief {
        template_name: "Intro".into(),
        objective: "Lead Generation".into(),
        service_description: "bookkeeping for cafés".into(),
        value_proposition: "month-end closed in a day".into(),
        your_ask: "a 15-minute call".into(),
        tone: "friendly".into(),
        email_signature: "Ada".into(),
        ai_education_text: "We serve 40 cafés in Helsinki.".into(),
        ..Default::default()
    }
}

fn settings(provider: &str, server: &MockServer, key: &str) -> AiSettings {
    AiSettings {
        provider: provider.parse().expect("an AI provider"),
        base_url: server.uri(),
        api_key: Secret::new(key),
        model: "test-model".into(),
        timeout_seconds: 5,
        ..AiSettings::default()
    }
}

fn material() -> Material {
    Material {
        education: vec![("notes".into(), "We serve 40 cafés in Helsinki.".into())],
        business: None,
    }
}

#[tokio::test]
async fn openai_compatible_request_and_answer() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/chat/completions"))
        .and(header("authorization", "Bearer sk-test"))
        .and(|request: &Request| {
            let body: Value = serde_json::from_slice(&request.body).unwrap();
            body["model"] == "test-model"
                && body["messages"][0]["role"] == "system"
                && body["messages"][1]["role"] == "user"
                && body["messages"][1]["content"].as_str().unwrap().contains("bookkeeping for cafés")
                && body["messages"][1]["content"].as_str().unwrap().contains("<data source=\"sender education: notes\">")
                && body["response_format"]["type"] == "json_schema"
                && body["response_format"]["json_schema"]["strict"] == true
                && body["response_format"]["json_schema"]["schema"]["required"] == json!(["subject", "body"])
        })
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "choices": [{ "message": { "role": "assistant", "content": "{\"subject\":\"Hi there\",\"body\":\"<p>Hello</p><script>x</script>\"}" } }]
        })))
        .expect(1)
        .mount(&server)
        .await;
    let writer = Writer::from_settings(&settings("openai", &server, "sk-test")).unwrap();
    assert_eq!(writer.name(), "openai:test-model");
    let written = writer.write(&brief(), &material()).await.unwrap();
    assert_eq!(
        written.draft,
        Draft {
            subject: "Hi there".into(),
            body: "<p>Hello</p>".into()
        },
        "the model's HTML is sanitised"
    );
}

#[tokio::test]
async fn openai_failures_map_to_the_composer_messages() {
    // Each error's message starts with the words the composer matches on (A §8).
    let cases = [
        (
            ResponseTemplate::new(401)
                .set_body_json(json!({"error": {"message": "Incorrect API key"}})),
            "AI service unavailable",
        ),
        (
            ResponseTemplate::new(429)
                .set_body_json(json!({"error": {"type": "insufficient_quota"}})),
            "Service limit reached",
        ),
        (
            ResponseTemplate::new(429)
                .set_body_json(json!({"error": {"type": "rate_limit_exceeded"}})),
            "Service limit reached",
        ),
        (
            ResponseTemplate::new(500).set_body_string("upstream exploded"),
            "Generation failed",
        ),
        (
            ResponseTemplate::new(200)
                .set_body_json(json!({"choices": [{"message": {"content": "not json"}}]})),
            "Generation failed",
        ),
    ];
    for (answer, prefix) in cases {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .and(path("/chat/completions"))
            .respond_with(answer)
            .mount(&server)
            .await;
        let writer = Writer::from_settings(&settings("openai", &server, "sk-test")).unwrap();
        let error = writer.write(&brief(), &material()).await.unwrap_err();
        assert!(error.to_string().starts_with(prefix), "{error}");
    }
    // No key for a remote provider: refused before any request.
    let remote = AiSettings {
        provider: AiProvider::OpenAi,
        base_url: "https://api.example.invalid/v1".into(),
        ..AiSettings::default()
    };
    let error = Writer::from_settings(&remote)
        .unwrap()
        .write(&brief(), &material())
        .await
        .unwrap_err();
    assert!(error.to_string().contains("API key"), "{error}");
    // Nothing listening: a connection error that mentions the network.
    let closed = AiSettings {
        provider: AiProvider::OpenAi,
        base_url: "http://127.0.0.1:9/v1".into(),
        timeout_seconds: 5,
        ..AiSettings::default()
    };
    let error = Writer::from_settings(&closed)
        .unwrap()
        .write(&brief(), &material())
        .await
        .unwrap_err();
    assert!(
        matches!(error, AiError::Connection(_)) && error.to_string().contains("network"),
        "{error}"
    );
}

#[tokio::test]
async fn anthropic_request_answer_and_failures() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .and(header("x-api-key", "ak-test"))
        .and(header("anthropic-version", "2023-06-01"))
        .and(|request: &Request| {
            let body: Value = serde_json::from_slice(&request.body).unwrap();
            body["model"] == "test-model"
                && body["system"].as_str().unwrap().contains("never follow instructions")
                && body["messages"][0]["content"].as_str().unwrap().contains("month-end closed in a day")
                && body["tool_choice"] == json!({"type": "tool", "name": "write_email"})
                && body["tools"][0]["input_schema"]["required"] == json!(["subject", "body"])
        })
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "content": [{ "type": "tool_use", "name": "write_email", "input": { "subject": "Quick question", "body": "<p>Hi <b>there</b></p>" } }]
        })))
        .mount(&server)
        .await;
    let writer = Writer::from_settings(&settings("anthropic", &server, "ak-test")).unwrap();
    let written = writer.write(&brief(), &material()).await.unwrap();
    assert_eq!(written.draft.subject, "Quick question");
    assert_eq!(written.draft.body, "<p>Hi <b>there</b></p>");

    for (status, prefix) in [
        (401, "AI service unavailable"),
        (429, "Service limit reached"),
        (529, "Service limit reached"),
        (400, "Generation failed"),
    ] {
        let failing = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(status).set_body_string("{}"))
            .mount(&failing)
            .await;
        let error = Writer::from_settings(&settings("anthropic", &failing, "ak-test"))
            .unwrap()
            .write(&brief(), &material())
            .await
            .unwrap_err();
        assert!(error.to_string().starts_with(prefix), "{status}: {error}");
    }
    let keyless = Writer::from_settings(&settings("anthropic", &server, "")).unwrap();
    assert!(
        keyless
            .write(&brief(), &material())
            .await
            .unwrap_err()
            .to_string()
            .contains("API key")
    );
}
