//! Settings: defaults, the file, the environment, and what stops the start.
// figment's `Jail` closures must return its (large) error type.
#![allow(clippy::result_large_err)]

use super::*;
use figment::Jail;

#[test]
fn listening_on_every_interface_needs_a_public_url() {
    Jail::expect_with(|jail| {
        jail.set_env("OUTREACH_HTTP__LISTEN", "0.0.0.0:8080");
        let error = Settings::load(Path::new("outreach.toml")).unwrap_err();
        assert!(error.contains("OUTREACH_HTTP__PUBLIC_URL"), "{error}");
        jail.set_env("OUTREACH_HTTP__PUBLIC_URL", "https://outreach.example.com");
        assert!(Settings::load(Path::new("outreach.toml")).is_ok());
        Ok(())
    });
}

#[test]
fn environment_overrides_file_and_lists_split_on_commas() {
    Jail::expect_with(|jail| {
        jail.create_file(
            "outreach.toml",
            "[http]\nlisten = \"127.0.0.1:7000\"\n[auth]\ninvite_only = false\n",
        )?;
        jail.set_env("OUTREACH_HTTP__LISTEN", "127.0.0.1:7001");
        jail.set_env(
            "OUTREACH_AUTH__ADMIN_EMAILS",
            "Boss@Example.org, ops@example.org",
        );
        let settings = Settings::load(Path::new("outreach.toml")).expect("loads");
        assert_eq!(settings.http.listen.port(), 7001);
        assert!(!settings.auth.invite_only);
        assert_eq!(
            settings.auth.admin_emails,
            vec!["boss@example.org", "ops@example.org"]
        );
        assert!(settings.auth.is_admin("BOSS@example.org"));
        Ok(())
    });
}

#[test]
fn unknown_keys_are_rejected_by_name() {
    Jail::expect_with(|jail| {
        jail.set_env("OUTREACH_HTTP__LISTN", "127.0.0.1:7001");
        let error = Settings::load(Path::new("missing.toml")).expect_err("unknown key");
        assert!(error.contains("listn"), "{error}");
        Ok(())
    });
    Jail::expect_with(|jail| {
        jail.create_file("outreach.toml", "[nonsense]\nkey = 1\n")?;
        let error = Settings::load(Path::new("outreach.toml")).expect_err("unknown section");
        assert!(error.contains("nonsense"), "{error}");
        Ok(())
    });
}

#[test]
fn unknown_providers_stop_the_start_by_name() {
    Jail::expect_with(|jail| {
        jail.set_env("OUTREACH_AI__PROVIDER", "opneai");
        let error = Settings::load(Path::new("missing.toml")).expect_err("unknown AI provider");
        assert!(
            error.contains("opneai") && error.contains("anthropic"),
            "{error}"
        );
        Ok(())
    });
    Jail::expect_with(|jail| {
        jail.create_file(
            "outreach.toml",
            "[search]\nproviders = [\"osm\", \"gogle\"]\n",
        )?;
        let error =
            Settings::load(Path::new("outreach.toml")).expect_err("unknown search provider");
        assert!(
            error.contains("gogle") && error.contains("directory"),
            "{error}"
        );
        Ok(())
    });
    Jail::expect_with(|jail| {
        jail.set_env("OUTREACH_SEARCH__PROVIDERS", "google, osm");
        jail.set_env("OUTREACH_AI__PROVIDER", "anthropic");
        let settings = Settings::load(Path::new("missing.toml")).expect("known names");
        assert_eq!(
            settings.search.providers,
            [SearchProvider::Google, SearchProvider::Osm]
        );
        assert_eq!(settings.ai.provider, AiProvider::Anthropic);
        Ok(())
    });
}

#[test]
fn instance_addresses_fall_back_sensibly() {
    let mut settings = Settings::default();
    assert_eq!(settings.sending_domain(), "hello.127.0.0.1");
    settings.http.public_url = "https://outreach.example.com:8443/".into();
    assert_eq!(settings.sending_domain(), "hello.outreach.example.com");
    settings.instance.sending_domain = "mail.example.org".into();
    assert_eq!(settings.sending_domain(), "mail.example.org");
    assert!(settings.support_emails().is_empty());
    settings.auth.admin_emails = vec!["boss@example.org".into()];
    assert_eq!(settings.support_emails(), vec!["boss@example.org"]);
    settings.instance.support_emails =
        vec!["help@example.org".into(), "billing@example.org".into()];
    assert_eq!(settings.support_emails().len(), 2);
}

#[test]
fn secrets_are_redacted_in_debug_output() {
    let mut settings = Settings::default();
    settings.google.client_secret = Secret::new("very-secret-value");
    settings.security.secret_key = Secret::new("another-secret");
    let printed = format!("{settings:?}");
    assert!(!printed.contains("very-secret-value") && !printed.contains("another-secret"));
    assert!(printed.contains("[redacted]"));
}

#[test]
fn example_config_names_every_key_and_parses() {
    let example: toml_value::Table = toml_value::from_str(EXAMPLE_CONFIG);
    let defaults = serde_json::to_value(Settings::default()).unwrap();
    for (section, keys) in defaults.as_object().unwrap() {
        for key in keys.as_object().unwrap().keys() {
            assert!(
                example.has(section, key),
                "example config lacks {section}.{key}"
            );
        }
    }
    Jail::expect_with(|jail| {
        // Uncommented, the example is a valid configuration.
        jail.create_file("example.toml", &toml_value::uncomment(EXAMPLE_CONFIG))?;
        Settings::load(Path::new("example.toml")).expect("example parses");
        Ok(())
    });
}

/// Just enough TOML reading for the example-config test: `[section]` headers and `# key = value` lines.
mod toml_value {
    pub struct Table(Vec<(String, String)>);
    impl Table {
        pub fn has(&self, section: &str, key: &str) -> bool {
            self.0.iter().any(|(s, k)| s == section && k == key)
        }
    }
    pub fn from_str(text: &str) -> Table {
        let mut section = String::new();
        let mut keys = Vec::new();
        for line in uncomment(text).lines() {
            let line = line.trim();
            if let Some(name) = line
                .strip_prefix('[')
                .and_then(|rest| rest.strip_suffix(']'))
            {
                section = name.to_string();
            } else if let Some((key, _)) = line.split_once('=') {
                keys.push((section.clone(), key.trim().to_string()));
            }
        }
        Table(keys)
    }
    /// Keys are shown commented out (`# key = value`); explanations use `## `.
    pub fn uncomment(text: &str) -> String {
        text.lines()
            .filter(|line| !line.trim_start().starts_with("##"))
            .map(|line| line.trim_start().strip_prefix("# ").unwrap_or(line))
            .collect::<Vec<_>>()
            .join("\n")
    }
}
