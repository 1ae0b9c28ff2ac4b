-- name: ReceiptTransactionClaim :execrows
-- Claims a shop transaction for a receipt; 0 rows when another receipt
-- holds it.
INSERT INTO receipt_transactions (shop_domain, transaction_id, receipt_id)
VALUES (@shop_domain, @transaction_id, @receipt_id)
ON CONFLICT (shop_domain, transaction_id) DO NOTHING;
