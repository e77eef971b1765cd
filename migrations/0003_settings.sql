-- Operator switches that live with the ledger, so every instance sees the same.
CREATE TABLE settings (
    name       text        PRIMARY KEY,
    value      boolean     NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);
