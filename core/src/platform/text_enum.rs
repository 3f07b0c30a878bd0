//! `text_enum!`: a closed set of values (a status, a provider) that the database and the wire store as text.
//!
//! The text is the one the migrations' check constraints list, so the columns stay plain text and readable in
//! `psql`/`sqlite3`, while the code matches on variants: a typo is a compile error, and an unknown value read
//! from a request, the config or the database is an error at that edge instead of a silent fallthrough.

/// A value outside the set, named in the error with the values that are accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} {value:?}: use {accepted}")]
pub struct UnknownValue {
    pub kind: &'static str,
    pub value: String,
    pub accepted: String,
}

/// Declares `pub enum $name` with `as_str`, `ALL`, `FromStr`, `Display`, serde as the text, sqlx encoding as
/// text on both backends, and an OpenAPI schema listing the texts.
#[macro_export]
macro_rules! text_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident ($kind:literal) {
            $($(#[$variant_meta:meta])* $variant:ident = $text:literal),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum $name {
            $($(#[$variant_meta])* #[serde(rename = $text)] $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::platform::text_enum::UnknownValue;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                match text {
                    $($text => Ok($name::$variant),)+
                    other => Err($crate::platform::text_enum::UnknownValue {
                        kind: $kind,
                        value: other.to_string(),
                        accepted: [$($text),+].join(", "),
                    }),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                // `pad`, not `write_str`: a width (`{:<8}`) lines a value up as it does a string.
                formatter.pad(self.as_str())
            }
        }

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .enum_values(Some([$($text),+]))
                    .into()
            }
        }

        impl utoipa::ToSchema for $name {}

        impl<DB: sqlx::Database> sqlx::Type<DB> for $name
        where
            String: sqlx::Type<DB>,
        {
            fn type_info() -> DB::TypeInfo {
                <String as sqlx::Type<DB>>::type_info()
            }

            fn compatible(ty: &DB::TypeInfo) -> bool {
                <String as sqlx::Type<DB>>::compatible(ty)
            }
        }

        impl<'r, DB: sqlx::Database> sqlx::Decode<'r, DB> for $name
        where
            String: sqlx::Decode<'r, DB>,
        {
            fn decode(value: DB::ValueRef<'r>) -> Result<Self, sqlx::error::BoxDynError> {
                Ok(<String as sqlx::Decode<'r, DB>>::decode(value)?.parse()?)
            }
        }

        impl<'q, DB: sqlx::Database> sqlx::Encode<'q, DB> for $name
        where
            &'static str: sqlx::Encode<'q, DB>,
        {
            fn encode_by_ref(
                &self,
                buf: &mut DB::ArgumentBuffer,
            ) -> Result<sqlx::encode::IsNull, sqlx::error::BoxDynError> {
                <&'static str as sqlx::Encode<'q, DB>>::encode(self.as_str(), buf)
            }
        }
    };
}

#[cfg(test)]
mod tests {
    crate::text_enum! {
        pub enum Colour ("colour") {
            Red = "red",
            DarkBlue = "dark-blue",
        }
    }

    #[test]
    fn text_round_trips_and_unknown_values_name_the_accepted_ones() {
        for colour in Colour::ALL {
            assert_eq!(colour.as_str().parse::<Colour>(), Ok(*colour));
            assert_eq!(
                serde_json::to_string(colour).unwrap(),
                format!("\"{colour}\"")
            );
        }
        let error = "green".parse::<Colour>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown colour \"green\": use red, dark-blue"
        );
        assert!(serde_json::from_str::<Colour>("\"Red\"").is_err());
    }
}
