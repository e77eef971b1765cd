-- A time as the API shows it: ISO 8601 in UTC with milliseconds (handlers/json.go's isoTime),
-- for the JSON that PostgreSQL builds for the read routes (store/json.go).
CREATE FUNCTION api_time(t timestamptz) RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE
    RETURN to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
