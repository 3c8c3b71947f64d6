-- Fact to fact on (ticket, item), each fact pruned by its own dates: the side keeping the
-- smaller share of its fact builds (build_side's PrunedFactShare) and its keys prune the
-- other fact's files, whichever side is the smaller.

SELECT count(*), sum(sr.sr_return_amt) FROM store_returns sr
JOIN date_dim d1 ON sr.sr_returned_date_sk = d1.d_date_sk
JOIN store_sales ss ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk
JOIN date_dim d2 ON ss.ss_sold_date_sk = d2.d_date_sk
WHERE d1.d_year = 2001 AND d1.d_moy >= 7 AND d2.d_year = 2001 AND d2.d_moy = 7;

SELECT d2.d_dom, count(*), sum(ss.ss_quantity) FROM store_returns sr
JOIN date_dim d1 ON sr.sr_returned_date_sk = d1.d_date_sk
JOIN store_sales ss ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk
JOIN date_dim d2 ON ss.ss_sold_date_sk = d2.d_date_sk
WHERE d1.d_year = 2001 AND d1.d_moy >= 7 AND d2.d_year = 2001 AND d2.d_moy = 7 AND d2.d_dom <= 3
GROUP BY d2.d_dom;

SELECT count(*) FROM store_returns sr
JOIN date_dim d1 ON sr.sr_returned_date_sk = d1.d_date_sk
JOIN store_sales ss ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk
JOIN date_dim d2 ON ss.ss_sold_date_sk = d2.d_date_sk
WHERE d1.d_year = 2001 AND d1.d_moy = 7 AND d2.d_year = 2001;

SELECT count(*), sum(sr.sr_return_quantity) FROM store_sales ss
JOIN store_returns sr ON sr.sr_ticket_number = ss.ss_ticket_number AND sr.sr_item_sk = ss.ss_item_sk
WHERE ss.ss_sold_date_sk BETWEEN 2451900 AND 2451930 AND sr.sr_returned_date_sk > 2451900;

SELECT count(*) FROM store_sales ss
JOIN store_returns sr ON sr.sr_ticket_number = ss.ss_ticket_number AND sr.sr_item_sk = ss.ss_item_sk
LEFT JOIN date_dim d ON sr.sr_returned_date_sk = d.d_date_sk
WHERE ss.ss_sold_date_sk < 2451000 AND (d.d_year IS NULL OR d.d_year = 1998);

-- Backward transfer: few returns (one store and quantity) build, and the July sales' keys,
-- computed first in a copy reduced by the date join above, prune the returns they probe.
SELECT sr.sr_store_sk, count(*), sum(sr.sr_return_amt) FROM store_returns sr
JOIN store_sales ss ON ss.ss_ticket_number = sr.sr_ticket_number AND ss.ss_item_sk = sr.sr_item_sk
JOIN date_dim d2 ON ss.ss_sold_date_sk = d2.d_date_sk
WHERE d2.d_year = 2001 AND d2.d_moy = 7 AND sr.sr_store_sk = 2 AND sr.sr_return_quantity = 1
GROUP BY sr.sr_store_sk;

SELECT d2.d_dom, count(*) FROM store_returns sr
JOIN store_sales ss ON ss.ss_ticket_number = sr.sr_ticket_number
JOIN date_dim d2 ON ss.ss_sold_date_sk = d2.d_date_sk
WHERE d2.d_year = 2001 AND d2.d_moy = 7 AND sr.sr_store_sk = 1 AND sr.sr_return_quantity < 5
GROUP BY d2.d_dom ORDER BY d2.d_dom;
