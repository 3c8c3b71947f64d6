-- INTERVAL values: date arithmetic with month-end clamping, timestamp differences, interval
-- arithmetic and parts. Intervals are compared through their text (CAST AS VARCHAR).

SELECT d_date, d_date + INTERVAL 1 MONTH, d_date - INTERVAL '1 month 2 days', d_date + INTERVAL '36 hours'
FROM date_dim WHERE d_dom IN (29, 30, 31) AND d_moy IN (1, 3, 12) AND d_year = 2000;

SELECT d_date, CAST(d_date AS DATE) + INTERVAL 30 DAY, CAST('2000-01-01' AS DATE) + INTERVAL '30 days' FROM date_dim WHERE d_date_sk % 401 = 0;

SELECT count(*) FROM date_dim WHERE d_date BETWEEN CAST('2000-02-28' AS DATE) AND CAST('2000-02-28' AS DATE) + INTERVAL 30 DAY;

SELECT CAST(CAST(d_date AS TIMESTAMP) - TIMESTAMP '2000-01-01 06:30:00' AS VARCHAR), d_date - DATE '2000-01-01'
FROM date_dim WHERE d_date_sk % 307 = 0;

SELECT CAST(INTERVAL '1 day' * d_moy AS VARCHAR), CAST(INTERVAL '1 month' * (d_dom / 10.0) AS VARCHAR), CAST(to_hours(d_dom) + to_minutes(d_moy) AS VARCHAR)
FROM date_dim WHERE d_date_sk % 211 = 0;

-- ordered
SELECT CAST(i AS VARCHAR), count(*) FROM (SELECT to_days(d_dom % 3) + to_hours(d_moy % 2) AS i FROM date_dim WHERE d_year = 2001) t GROUP BY i ORDER BY i;

SELECT extract(day FROM INTERVAL '1 day' * d_dom), date_part('hour', to_hours(d_moy * 7)), extract(month FROM to_months(d_moy + 11))
FROM date_dim WHERE d_date_sk % 199 = 0;

SELECT count(*) FROM store_sales ss JOIN date_dim d ON ss.ss_sold_date_sk = d.d_date_sk
WHERE d.d_date + INTERVAL 14 DAY BETWEEN DATE '2000-03-01' AND DATE '2000-03-01' + INTERVAL '2 months';
