-- pgbench's tpcb-like transaction in one call. Accounts and tellers are picked inside the
-- branch (pgbench numbers them branch by branch), so every row it touches lives in the shard
-- of p_bid, and Citus can run the whole call on that shard's worker.
CREATE OR REPLACE FUNCTION pgbench_tpcb(p_bid integer, p_aid_in_branch integer, p_tid_in_branch integer, p_delta integer)
RETURNS integer
LANGUAGE plpgsql
AS $$
DECLARE
  v_aid integer := (p_bid - 1) * 100000 + p_aid_in_branch;
  v_tid integer := (p_bid - 1) * 10 + p_tid_in_branch;
  v_balance integer;
BEGIN
  UPDATE pgbench_accounts SET abalance = abalance + p_delta WHERE bid = p_bid AND aid = v_aid;
  SELECT abalance INTO v_balance FROM pgbench_accounts WHERE bid = p_bid AND aid = v_aid;
  UPDATE pgbench_tellers SET tbalance = tbalance + p_delta WHERE bid = p_bid AND tid = v_tid;
  UPDATE pgbench_branches SET bbalance = bbalance + p_delta WHERE bid = p_bid;
  INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (v_tid, p_bid, v_aid, p_delta, CURRENT_TIMESTAMP);
  RETURN v_balance;
END
$$;
