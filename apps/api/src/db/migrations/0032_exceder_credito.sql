-- Selling on a customer's account over their credit limit (issue 14): a counter control of its
-- own, off for every member (administrators with full access may anyway).
ALTER TABLE "business_members" ADD COLUMN "exceder_credito" boolean NOT NULL DEFAULT false;
