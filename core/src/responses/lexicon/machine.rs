//! What machines write: automatic answers, delivery notices read as text, and the lines mail clients put above
//! the quoted message.

/// Delivery failure notices read as text (a forwarded bounce, or one whose headers were lost): a message word, a
/// word about delivery and a word of failure in one sentence ("Your message could not be delivered", "Ihre Nachricht
/// konnte nicht zugestellt werden", "Viestiä ei voitu toimittaa"), or a delivery system's own phrase.
pub const MESSAGE_WORDS: &[&str] = &[
    "message*",
    "mail",
    "email",
    "recipient*",
    "nachricht*",
    "empfanger*",
    "courriel*",
    "destinataire*",
    "mensaje*",
    "correo*",
    "destinatario*",
    "viest*",
    "sahkoposti*",
    "vastaanottaja*",
];

/// Words about delivery, for `MESSAGE_WORDS`.
pub const DELIVERY_WORDS: &[&str] = &[
    "deliver*",
    "delivery",
    "undeliver*",
    "zugestellt",
    "zustell*",
    "unzustellbar",
    "remis",
    "remise",
    "distribue",
    "entreg*",
    "toimit*",
    "perille",
];

/// Failure words, for `MESSAGE_WORDS` and `DELIVERY_WORDS`.
pub const FAILURE_WORDS: &[&str] = &[
    "fail*",
    "failure",
    "not",
    "could",
    "unable",
    "undeliverable",
    "nicht",
    "konnte",
    "fehlgeschlagen",
    "echec",
    "pas",
    "impossible",
    "non",
    "no",
    "fallo",
    "fallido",
    "ei",
    "voitu",
    "epaonnistui",
];

/// What delivery systems say of an address that does not work.
pub const BOUNCE_PHRASES: &[&str] = &[
    "address not found",
    "user unknown",
    "mailbox unavailable",
    "recipient address rejected",
    "no such user",
    "mailbox not found",
    "delivery status notification",
    "adresse nicht gefunden",
    "empfanger unbekannt",
    "unbekannter empfanger",
    "adresse introuvable",
    "destinataire inconnu",
    "direccion no encontrada",
    "destinatario desconocido",
    "osoitetta ei loydy",
    "tuntematon vastaanottaja",
];

/// Automatic answers (out of office, delivery systems) when only the subject and body are known.
pub const AUTOMATIC: &[&str] = &[
    "out of office",
    "out of the office",
    "automatic reply",
    "auto reply",
    "autoreply",
    "auto-reply",
    "away from the office",
    "i am away",
    "i'm away",
    "i am currently away",
    "on leave until",
    "on vacation until",
    "limited access to email",
    "this mailbox is not monitored",
    "do not reply to this",
    "this is an automated",
    "abwesenheitsnotiz",
    "automatische antwort",
    "nicht im buro",
    "ausser haus",
    "im urlaub bis",
    "bin bis zum",
    "abwesend bis",
    "keinen zugriff auf",
    "reponse automatique",
    "absent du bureau",
    "absente du bureau",
    "en conges jusqu",
    "en vacances jusqu",
    "je suis absent",
    "je suis absente",
    "message automatique",
    "respuesta automatica",
    "fuera de la oficina",
    "de vacaciones hasta",
    "estoy fuera",
    "ausente hasta",
    "mensaje automatico",
    "automaattinen vastaus",
    "poissa toimistolta",
    "lomalla",
    "olen poissa",
    "poissaoloviesti",
    "en ole tavoitettavissa",
];

/// Lines that begin the quoted message a reply carries below its own text.
pub const QUOTE_HEADERS: &[&str] = &[
    "wrote:",
    "schrieb:",
    "a ecrit",
    "escribio:",
    "kirjoitti:",
    "-----original message-----",
    "-----ursprungliche nachricht-----",
    "-----message d'origine-----",
    "-----mensaje original-----",
    "from:",
    "von:",
    "de :",
    "de:",
    "lahettaja:",
];

/// Lines (folded) after which a reply holds only its writer's signature, a mail app's tag line or a disclaimer: the
/// signature delimiter of RFC 3676 ("-- "), a rule of dashes or underscores, and the tag lines mail apps add.
pub const SIGNATURE_STARTS: &[&str] = &[
    "sent from my",
    "sent from outlook",
    "get outlook for",
    "gesendet von",
    "gesendet mit",
    "von meinem iphone gesendet",
    "envoye de mon",
    "envoye depuis",
    "enviado desde",
    "enviado con",
    "lahetetty",
];
