//! `outreach`: the command line and the only composition root. `serve` runs every role in one process on the
//! embedded SQLite default; `api`, `worker` and `scheduler` run them apart against PostgreSQL.

mod operator;

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context as _;
use clap::{Args, Parser, Subcommand};
use outreach_core::platform::clock::SystemClock;
use outreach_core::platform::config::EXAMPLE_CONFIG;
use outreach_core::platform::jobs::KINDS;
use outreach_core::platform::queue::{JobStatus, parse_status};
use outreach_core::{Context, Db, Settings};
use tokio::sync::watch;

#[derive(Parser)]
#[command(name = "outreach", version, about = "Self-hosted AI email outreach")]
struct Cli {
    /// Configuration file (optional; environment variables OUTREACH_<SECTION>__<KEY> override it).
    #[arg(long, global = true, default_value = "outreach.toml")]
    config: PathBuf,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// API, worker and scheduler in one process (the embedded default).
    Serve,
    /// Only the HTTP API.
    Api,
    /// Only the job worker (any number may run against PostgreSQL).
    Worker,
    /// Only the scheduler.
    Scheduler,
    /// Apply database migrations and exit.
    Migrate,
    /// Configuration helpers.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Inspect and reprocess queue jobs.
    Jobs {
        #[command(subcommand)]
        command: JobsCommand,
    },
    /// Look accounts up and change them (each change is written to the audit log).
    Users {
        /// Print JSON.
        #[arg(long, global = true)]
        json: bool,
        #[command(subcommand)]
        command: operator::UsersCommand,
    },
    /// Senders across users: their health and pools.
    Senders {
        /// Print JSON.
        #[arg(long, global = true)]
        json: bool,
        #[command(subcommand)]
        command: operator::SendersCommand,
    },
    /// Pause or resume any user's campaign (written to the audit log).
    Campaigns {
        /// Print JSON.
        #[arg(long, global = true)]
        json: bool,
        #[command(subcommand)]
        command: operator::CampaignsCommand,
    },
    /// Run searches, website lookups or reply readings again (written to the audit log).
    Reprocess {
        /// Print JSON.
        #[arg(long, global = true)]
        json: bool,
        #[command(subcommand)]
        command: operator::ReprocessCommand,
    },
    /// Load data into the database.
    Import {
        #[command(subcommand)]
        command: ImportCommand,
    },
    /// Evaluate the AI on a labelled set.
    Eval {
        #[command(subcommand)]
        command: EvalCommand,
    },
    /// Reads an uploaded file from standard input and writes its text as JSON: the child process the API reads
    /// education files in, under memory and time limits.
    #[command(hide = true)]
    ExtractText { name: String },
}

#[derive(Subcommand)]
enum ImportCommand {
    /// Load the named businesses and place names of an OpenStreetMap extract (.osm.pbf) into the offline directory.
    Osm { file: PathBuf },
}

#[derive(Subcommand)]
enum EvalCommand {
    /// Classify labelled replies (JSON lines: subject, body, sentiment, action, escalate, auto) and print per-class
    /// precision and recall, macro-F1, escalation recall and precision and the automatic-answer accuracy.
    Replies {
        /// A .jsonl file, or a folder of them named by language (`en.jsonl`, …).
        file: PathBuf,
        /// `offline` (the built-in classifier) or `configured` (the model of ai.provider).
        #[arg(long, default_value = "offline", value_parser = ["offline", "configured"])]
        classifier: String,
        /// Also list each reply read differently from its label.
        #[arg(long)]
        show_errors: bool,
        /// Cross-validate the offline reader on the set in this many parts: each is read by a model trained on the
        /// others.
        #[arg(long)]
        folds: Option<usize>,
    },
    /// Read saved websites (a folder of sites, each with `site.json` and its pages), write each one's facts and
    /// icebreaker, and print the precision of the lines' claims, the coverage and the lines written for sites
    /// without facts.
    Icebreakers {
        dir: PathBuf,
        /// `offline` (the templates) or `configured` (the model of ai.provider, checked against the facts).
        #[arg(long, default_value = "offline", value_parser = ["offline", "configured"])]
        writer: String,
        /// Also list each wrong or missed fact and each unsupported claim.
        #[arg(long)]
        show_errors: bool,
    },
}

#[derive(Subcommand)]
enum ConfigCommand {
    /// Print a commented example configuration with every key.
    Default,
}

#[derive(Subcommand)]
enum JobsCommand {
    /// List jobs, newest first.
    List {
        /// pending, queued, running, done, failed or killed.
        #[arg(long)]
        status: Option<String>,
        /// A job kind, e.g. ExpireSubscriptions.
        #[arg(long)]
        kind: Option<String>,
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
    /// Show one job with its payload and last error.
    Show { id: String },
    /// Put failed jobs back in the queue with a fresh attempt count.
    Retry(RetryArgs),
}

#[derive(Args)]
struct RetryArgs {
    /// The job to retry.
    #[arg(conflicts_with = "failed", required_unless_present = "failed")]
    id: Option<String>,
    /// Retry every failed job (optionally of one kind).
    #[arg(long)]
    failed: bool,
    #[arg(long, requires = "failed")]
    kind: Option<String>,
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    if let Err(error) = run(cli).await {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    if let Command::ExtractText { name } = &cli.command {
        return Ok(outreach_core::campaigns::education::extract_text_command(
            name,
        )?);
    }
    if let Command::Eval {
        command:
            EvalCommand::Replies {
                file,
                classifier,
                show_errors,
                folds,
            },
    } = &cli.command
    {
        return eval_replies(&cli.config, file, classifier, *show_errors, *folds).await;
    }
    if let Command::Eval {
        command:
            EvalCommand::Icebreakers {
                dir,
                writer,
                show_errors,
            },
    } = &cli.command
    {
        return eval_icebreakers(&cli.config, dir, writer, *show_errors).await;
    }
    if let Command::Config {
        command: ConfigCommand::Default,
    } = cli.command
    {
        print!("{EXAMPLE_CONFIG}");
        return Ok(());
    }
    let settings = Settings::load(&cli.config).map_err(anyhow::Error::msg)?;
    match cli.command {
        Command::Jobs { command } => return jobs(settings, command).await,
        Command::Users { json, command } => {
            let ctx = operator_context(settings).await?;
            return operator::users(&ctx, command, json).await;
        }
        Command::Senders { json, command } => {
            let ctx = operator_context(settings).await?;
            return operator::senders(&ctx, command, json).await;
        }
        Command::Campaigns { json, command } => {
            let ctx = operator_context(settings).await?;
            return operator::campaigns(&ctx, command, json).await;
        }
        Command::Reprocess { json, command } => {
            let ctx = operator_context(settings).await?;
            return operator::reprocess(&ctx, command, json).await;
        }
        Command::Import {
            command: ImportCommand::Osm { file },
        } => {
            let db = connect(&settings).await?;
            db.migrate().await.context("migrating the database")?;
            let now = chrono_now_ms();
            let report = outreach_core::discovery::directory::import_osm(&db, &file, now)
                .await
                .with_context(|| format!("importing {}", file.display()))?;
            println!(
                "imported {} businesses and {} place names from {} ({})",
                report.places,
                report.localities,
                file.display(),
                outreach_core::discovery::directory::ATTRIBUTION
            );
            return Ok(());
        }
        Command::Migrate => {
            let db = connect(&settings).await?;
            db.migrate().await.context("migrating the database")?;
            println!("migrations applied ({})", db.backend());
            return Ok(());
        }
        _ => {}
    }
    init_tracing(&settings);
    let mut settings = settings;
    let data_dir = settings.data_dir();
    settings.security.secret_key = outreach_core::platform::security::load_or_create_secret_key(
        &settings.security.secret_key,
        &data_dir,
    )
    .with_context(|| format!("preparing the secret key in {}", data_dir.display()))?;
    install_metrics(&settings).await?;
    let db = connect(&settings).await?;
    db.migrate().await.context("migrating the database")?;
    let ctx = Context::new(db, settings, Arc::new(SystemClock));
    let (stop, stopped) = watch::channel(false);
    tokio::spawn(async move {
        shutdown_signal().await;
        tracing::info!("shutting down");
        stop.send(true).ok();
    });
    let until_stopped = move || {
        let mut stopped = stopped.clone();
        async move {
            stopped.wait_for(|stop| *stop).await.ok();
        }
    };
    match cli.command {
        Command::Serve => {
            let api = tokio::spawn(serve_api(ctx.clone(), until_stopped()));
            let worker = tokio::spawn(outreach_worker::run(ctx.clone(), until_stopped()));
            let scheduler = tokio::spawn(outreach_scheduler::run(ctx.clone(), until_stopped()));
            let (api, worker, scheduler) = tokio::join!(api, worker, scheduler);
            api??;
            worker??;
            scheduler??;
        }
        Command::Api => serve_api(ctx.clone(), until_stopped()).await?,
        Command::Worker => outreach_worker::run(ctx.clone(), until_stopped()).await?,
        Command::Scheduler => outreach_scheduler::run(ctx.clone(), until_stopped()).await?,
        Command::Migrate
        | Command::Config { .. }
        | Command::Eval { .. }
        | Command::Jobs { .. }
        | Command::Users { .. }
        | Command::Senders { .. }
        | Command::Campaigns { .. }
        | Command::Reprocess { .. }
        | Command::Import { .. }
        | Command::ExtractText { .. } => {
            unreachable!("handled above")
        }
    }
    ctx.db.close().await;
    Ok(())
}

async fn connect(settings: &Settings) -> anyhow::Result<Db> {
    Db::connect(&settings.database.url, settings.database.max_connections)
        .await
        .context("connecting to the database")
}

async fn serve_api(
    ctx: Context,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let listen = ctx.settings.http.listen;
    let public = ctx.settings.http.public_url();
    // This binary reads uploads in a child process of itself, under memory and time limits.
    let state = outreach_api::AppState::with_extractor(
        ctx,
        outreach_core::campaigns::education::Extractor::ChildProcess(
            std::env::current_exe().context("locating the outreach binary")?,
        ),
    )?;
    let recorder = state.recorder.clone();
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("listening on {listen}"))?;
    tracing::info!(%listen, %public, "API listening");
    // The peer address feeds the per-client limits of public endpoints.
    let app =
        outreach_api::app(state).into_make_service_with_connect_info::<std::net::SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await?;
    // Events recorded before the stop are written before the process ends.
    recorder.finish().await;
    Ok(())
}

fn init_tracing(settings: &Settings) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_new(&settings.log.level).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if settings.log.format == "json" {
        builder.json().flatten_event(true).init();
    } else {
        builder.init();
    }
}

/// Installs the Prometheus recorder and serves `/metrics` on `metrics.listen` (skipped when empty).
async fn install_metrics(settings: &Settings) -> anyhow::Result<()> {
    if settings.metrics.listen.is_empty() {
        return Ok(());
    }
    let handle = metrics_exporter_prometheus::PrometheusBuilder::new()
        .set_buckets(&[
            0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
        ])?
        .install_recorder()?;
    outreach_core::platform::telemetry::describe();
    let upkeep = handle.clone();
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(std::time::Duration::from_secs(5));
        loop {
            interval.tick().await;
            upkeep.run_upkeep();
        }
    });
    let listen = &settings.metrics.listen;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("metrics listener on {listen}"))?;
    let router = outreach_api::observability::metrics_router(move || handle.render());
    tokio::spawn(async move { axum::serve(listener, router).await });
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("signal handler");
        tokio::select! { _ = ctrl_c => {}, _ = term.recv() => {} }
    }
    #[cfg(not(unix))]
    ctrl_c.await.ok();
}

/// The database (migrated) and the queue, for an operator's command.
async fn operator_context(settings: Settings) -> anyhow::Result<Context> {
    let db = connect(&settings).await?;
    db.migrate().await.context("migrating the database")?;
    Ok(Context::new(db, settings, Arc::new(SystemClock)))
}

async fn jobs(settings: Settings, command: JobsCommand) -> anyhow::Result<()> {
    let ctx = operator_context(settings).await?;
    let queue = &ctx.queue;
    let kind_of = |kind: Option<String>| -> anyhow::Result<Option<&'static str>> {
        kind.map(|kind| {
            KINDS
                .iter()
                .copied()
                .find(|known| known.eq_ignore_ascii_case(&kind))
                .ok_or_else(|| {
                    anyhow::anyhow!("unknown job kind {kind}; known kinds: {}", KINDS.join(", "))
                })
        })
        .transpose()
    };
    match command {
        JobsCommand::List {
            status,
            kind,
            limit,
        } => {
            let status = status
                .map(|text| {
                    parse_status(&text).ok_or_else(|| {
                        anyhow::anyhow!(
                            "unknown status {text}; use one of {}",
                            JobStatus::ALL
                                .iter()
                                .map(|status| status.as_str().to_lowercase())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    })
                })
                .transpose()?;
            let rows = queue
                .list(status, kind_of(kind)?, limit.clamp(1, 10_000))
                .await?;
            if rows.is_empty() {
                println!("no jobs");
            }
            for row in rows {
                println!("{}", row.summary());
            }
        }
        JobsCommand::Show { id } => match queue.show(&id).await? {
            Some(job) => println!("{}", serde_json::to_string_pretty(&job)?),
            None => anyhow::bail!("no job with id {id}"),
        },
        // Audited like the console's Retry, with `cli` as the actor.
        JobsCommand::Retry(args) => {
            if args.failed {
                let kinds = match kind_of(args.kind)? {
                    Some(kind) => vec![kind],
                    None => KINDS.to_vec(),
                };
                for kind in kinds {
                    match outreach_core::admin::retry_failed(&ctx, "cli", kind).await? {
                        Some(_) => println!("every failed {kind} job is back in the queue"),
                        None => println!("no {kind} job had failed"),
                    }
                }
            } else {
                let id = args.id.expect("clap requires an id without --failed");
                outreach_core::admin::retry_job(&ctx, "cli", &id).await?;
                println!("re-enqueued 1 job(s)\n{id}");
            }
        }
    }
    Ok(())
}

fn chrono_now_ms() -> i64 {
    use outreach_core::platform::clock::Clock;
    SystemClock.now_ms()
}

/// `outreach eval replies`: the scores of a classifier on a labelled set, overall and per language; the last line
/// holds the three figures.
async fn eval_replies(
    config: &std::path::Path,
    path: &std::path::Path,
    classifier: &str,
    show_errors: bool,
    folds: Option<usize>,
) -> anyhow::Result<()> {
    use outreach_core::responses::{eval, offline};
    use outreach_core::writing::ai::writer::Writer;
    let sets = labelled_sets(path)?;
    let writer = if classifier == "configured" {
        let settings = Settings::load(config).map_err(anyhow::Error::msg)?;
        Writer::from_settings(&settings.ai).map_err(anyhow::Error::msg)?
    } else {
        Writer::Offline
    };
    let now = outreach_core::platform::clock::Clock::now_ms(&SystemClock);
    let today = outreach_core::platform::clock::date_of(now);
    let set: Vec<eval::Labelled> = sets.iter().flat_map(|(_, set)| set.clone()).collect();
    // A folder names each reply's language; a single file's replies are told apart by the reader's guess.
    let languages: Vec<String> = sets
        .iter()
        .flat_map(|(name, part)| {
            part.iter().map(move |labelled| match name {
                Some(name) => name.clone(),
                None => {
                    offline::language(&outreach_core::responses::text::own_text(&labelled.body))
                        .to_string()
                }
            })
        })
        .collect();
    let predicted = match folds {
        Some(folds) => {
            let named: Vec<(String, Vec<eval::Labelled>)> = sets
                .into_iter()
                .map(|(name, set)| (name.unwrap_or_default(), set))
                .collect();
            println!(
                "{} replies, offline reader, {folds}-fold cross-validation",
                set.len()
            );
            eval::cross_validate(&named, folds, today)
        }
        None => {
            println!("{} replies, classifier {}", set.len(), writer.name());
            eval::predict(&set, &writer, today).await
        }
    };
    if show_errors {
        for (labelled, guess) in set.iter().zip(&predicted) {
            if let Some(miss) = eval::difference(labelled, guess) {
                println!("  {miss}: {}", labelled.body.replace('\n', " "));
            }
        }
    }
    println!("by language:");
    print!("{}", eval::score_by_language(&set, &predicted, &languages));
    println!("{}", eval::score(&set, &predicted).report);
    Ok(())
}

/// `outreach eval icebreakers`: the scores of the icebreakers written for a folder of saved sites; the last line
/// holds the three figures.
async fn eval_icebreakers(
    config: &std::path::Path,
    dir: &std::path::Path,
    writer: &str,
    show_errors: bool,
) -> anyhow::Result<()> {
    use outreach_core::discovery::facts::eval;
    use outreach_core::writing::ai::writer::Writer;
    let writer = if writer == "configured" {
        let settings = Settings::load(config).map_err(anyhow::Error::msg)?;
        Writer::from_settings(&settings.ai).map_err(anyhow::Error::msg)?
    } else {
        Writer::Offline
    };
    let sites = eval::read_sites(dir)?;
    println!("{} sites, writer {}", sites.len(), writer.name());
    let scores = eval::evaluate(&sites, &writer).await?;
    if show_errors {
        for error in &scores.errors {
            println!("  {error}");
        }
    }
    println!("{}", scores.report());
    Ok(())
}

/// The labelled sets at a path: one file (no language named), or each `.jsonl` of a folder named by its stem.
fn labelled_sets(
    path: &std::path::Path,
) -> anyhow::Result<
    Vec<(
        Option<String>,
        Vec<outreach_core::responses::eval::Labelled>,
    )>,
> {
    let read = |file: &std::path::Path| -> anyhow::Result<_> {
        let text =
            std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
        outreach_core::responses::eval::read_set(&text)
            .map_err(|error| anyhow::anyhow!("{}: {error}", file.display()))
    };
    if !path.is_dir() {
        return Ok(vec![(None, read(path)?)]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .with_context(|| format!("reading {}", path.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|file| file.extension().is_some_and(|ext| ext == "jsonl"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|file| {
            let name = file
                .file_stem()
                .map(|stem| stem.to_string_lossy().into_owned());
            Ok((name, read(file)?))
        })
        .collect()
}
