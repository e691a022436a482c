//! A PostgreSQL database for one test: a fresh schema of the server named
//! by `FANORONA_TEST_POSTGRES` (default `postgres://postgres@127.0.0.1:5432/test`),
//! dropped when the test ends, so tests running at once never see each
//! other's games. When no server answers, the test says so loudly on
//! stderr and is skipped, except under `CI=true`, where `.ci/run` has
//! started one and a skip would hide a failure.

#![allow(dead_code, unreachable_pub, clippy::unwrap_used)]

use std::io::Write;

use sqlx::{Connection, PgConnection};

/// The variable naming the test server.
pub const VARIABLE: &str = "FANORONA_TEST_POSTGRES";

/// The server `.ci/run` provides.
pub const DEFAULT: &str = "postgres://postgres@127.0.0.1:5432/test";

/// A schema of its own on the test server; dropped with this value.
#[derive(Debug)]
pub struct Schema {
    server: String,
    name: String,
}

/// The test server's URL.
pub fn server() -> String {
    std::env::var(VARIABLE).unwrap_or_else(|_| DEFAULT.to_owned())
}

impl Schema {
    /// Creates a fresh schema, or returns `None` after printing why the
    /// test is skipped; panics instead under `CI=true`.
    pub async fn create(test: &str) -> Option<Schema> {
        let server = server();
        let mut conn = match PgConnection::connect(&server).await {
            Ok(conn) => conn,
            Err(error) => {
                let line = format!(
                    "SKIPPED: PostgreSQL not reachable at {server} ({error}): \
                     {test} ran on SQLite only; set {VARIABLE} or start a server"
                );
                assert!(
                    std::env::var("CI").as_deref() != Ok("true"),
                    "{line} (CI must have PostgreSQL: .ci/run starts one)"
                );
                // Straight to the process's stderr: `eprintln!` would be
                // captured, and so never shown, for a test that passes.
                let _ = writeln!(std::io::stderr(), "\n!!!!!!!! {line}\n");
                return None;
            }
        };
        let name = format!("t_{:016x}", fastrand::u64(..));
        sqlx::query(&format!("CREATE SCHEMA {name}"))
            .execute(&mut conn)
            .await
            .unwrap();
        conn.close().await.unwrap();
        Some(Schema { server, name })
    }

    /// The URL of the schema: the server's, with the schema as the search
    /// path of every connection, and as its application name, by which
    /// the drop finds the connections still open.
    pub fn url(&self) -> String {
        let join = if self.server.contains('?') { '&' } else { '?' };
        format!(
            "{}{join}options=-c%20search_path%3D{name}&application_name={name}",
            self.server,
            name = self.name
        )
    }
}

impl Drop for Schema {
    fn drop(&mut self) {
        let (server, name) = (self.server.clone(), self.name.clone());
        // On a thread of its own: the test's runtime may be ending.
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                let mut conn = PgConnection::connect(&server).await?;
                // The test's pools may still hold connections (the runtime
                // that would close them waits for this thread).
                sqlx::query(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                     WHERE application_name = $1",
                )
                .bind(&name)
                .execute(&mut conn)
                .await?;
                sqlx::query(&format!("DROP SCHEMA {name} CASCADE"))
                    .execute(&mut conn)
                    .await?;
                conn.close().await
            })
        })
        .join();
        if let Ok(Err(error)) = dropped {
            eprintln!("could not drop the test schema: {error}");
        }
    }
}
