-- A tier's note (issue 49 §3): a sentence for buyers that the operator sets ("Opens to DHT holders
-- on 1 December"), shown on the tier's card and in GET /api/tiers. Like the label it is not
-- versioned: it changes what buyers read, not what the sale judges.
ALTER TABLE tiers ADD COLUMN note text CHECK (char_length(note) <= 200);
