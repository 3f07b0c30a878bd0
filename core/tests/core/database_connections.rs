//! The database driver's TCP connections send each write at once (`TCP_NODELAY`). sqlx 0.9.0 stopped setting it, and
//! with Nagle's algorithm on, a request written in two pieces (as TLS does) waited for the server's delayed
//! acknowledgement: about 40 ms stalls that cut the queue's drain by a third on PostgreSQL. The repository carries
//! the upstream fix until a release has it (vendor/README.md).

use std::any::Any;

use sqlx_core::net::{Socket, WithSocket, connect_tcp};

/// Reads, on the socket the driver opened, whether small writes go out at once.
struct SendsAtOnce;

impl WithSocket for SendsAtOnce {
    type Output = Option<bool>;

    async fn with_socket<S: Socket>(self, socket: S) -> Option<bool> {
        let socket: &dyn Any = &socket;
        let stream = socket.downcast_ref::<tokio::net::TcpStream>()?;
        stream.nodelay().ok()
    }
}

#[tokio::test]
async fn the_driver_opens_tcp_connections_with_nagles_algorithm_off() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let sends_at_once = connect_tcp("127.0.0.1", port, SendsAtOnce)
        .await
        .expect("connects");
    assert_eq!(
        sends_at_once,
        Some(true),
        "a tokio TCP stream with TCP_NODELAY set"
    );
}
