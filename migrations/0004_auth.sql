-- Wallet sign-in. A nonce is kept server side and burnt on first use, so a captured cookie and
-- signature cannot be replayed; a wallet's sign-out time ends every session issued before it,
-- though the session cookie itself stays stateless.
CREATE TABLE auth_nonces (
    nonce      text        PRIMARY KEY,
    address    address,    -- the account the message names, when the client said it
    issued_at  timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz
);
CREATE INDEX auth_nonces_expires ON auth_nonces (expires_at);

CREATE TABLE wallet_signouts (
    address       address     PRIMARY KEY,
    signed_out_at timestamptz NOT NULL
);
