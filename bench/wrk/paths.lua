-- wrk script: each request asks for a random line of the file named by WRK_PATHS, and done()
-- prints one JSON line with what bench/run.sh tabulates.
local paths = {}

function init(args)
  for line in io.lines(os.getenv("WRK_PATHS")) do
    paths[#paths + 1] = line
  end
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
end

function request()
  return wrk.format("GET", paths[math.random(#paths)])
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"rps":%.1f,"p50_ms":%.3f,"p99_ms":%.3f,"requests":%d,"non2xx":%d,"errors":%d}\n',
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, summary.requests, e.status,
    e.connect + e.read + e.write + e.timeout))
end
