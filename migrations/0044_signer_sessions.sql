-- The second Safe owner was shut out (issue 48 §7): an owner of the treasury not on the operator
-- list could not sign in to sign a batch. An owner may now sign in as a signer, a power that
-- comes from owning the Safe (read from the chain at sign-in), lets them see, approve and execute
-- the treasury's batches, and grants nothing else. Such a session names no operator, so the
-- session's address no longer refers to the operator list: a session's role is read at each
-- request, from the list (an operator's) or from signer (an owner's); one removed from the list
-- and no signer has no session.
ALTER TABLE operator_sessions
    DROP CONSTRAINT operator_sessions_address_fkey,
    ADD COLUMN signer boolean NOT NULL DEFAULT false;
