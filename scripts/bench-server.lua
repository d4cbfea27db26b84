-- wrk script for scripts/bench-server.sh: each thread alternates between pushing the next of its
-- pre-made batches (PUT /v1/batches/…) and pulling (GET /v1/changes), as syncing clients do.
local threads = {}
local counter = 0

function setup(thread)
  thread:set("index", #threads)
  table.insert(threads, thread)
end

function init(args)
  token = os.getenv("BENCH_TOKEN")
  local file = assert(io.open(os.getenv("BENCH_BATCHES") .. index .. ".bin", "rb"))
  local data = file:read("*a")
  file:close()
  batches = {}
  local position = 1
  while position <= #data do
    local newline = data:find("\n", position, true)
    local path = data:sub(position, newline - 1)
    local second = data:find("\n", newline + 1, true)
    local length = tonumber(data:sub(newline + 1, second - 1))
    table.insert(batches, { path = path, body = data:sub(second + 1, second + length) })
    position = second + length + 1
  end
  device = batches[1].path:match("/v1/batches/([^/]+)/")
  next_batch = 1
  headers = { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/octet-stream" }
  pulls = 0
end

function request()
  counter = counter + 1
  if counter % 2 == 1 and next_batch <= #batches then
    local batch = batches[next_batch]
    next_batch = next_batch + 1
    return wrk.format("PUT", batch.path, headers, batch.body)
  end
  pulls = pulls + 1
  -- Most pulls find the other devices' newest few batches; every tenth starts from further back.
  local after = (pulls % 10 == 0) and "" or "999999999"
  return wrk.format("GET", "/v1/changes?after=" .. after .. "&exclude=" .. device .. "&limit=20", headers)
end

function done(summary, latency, requests)
  io.write(string.format("p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
