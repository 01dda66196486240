# Achieved levels of the rank intervals and the two-sided exact power, for
# tests/stats/test_intervals.py and tests/stats/test_power.py.
#
#   cd tests/stats/reference && Rscript intervals_power.R   # -> intervals_power.json
#
# R 4.2.2, base stats only.
# - wilcox.test(conf.int = TRUE) on untied samples: its interval; the level it
#   achieves is 1 - 2 * psignrank(qu - 1, n) with qu the order statistic it uses
#   (R's own achieved.alpha; R reports it only when the level is not achievable).
# - The distribution-free median interval of the sign test: order statistics k+1
#   and n-k with k = qbinom(alpha/2, n, 1/2) stepped down until
#   pbinom(k, n, 1/2) <= alpha/2; level 1 - 2 pbinom(k, n, 1/2).
# - power.t.test(type = "one.sample", strict = TRUE): two-sided exact power and
#   the n needed (ceiling of the solved n).
source("_json.R")
set.seed(20261124)
wilcoxon <- list()
for (n in c(5, 6, 7, 8, 10, 12, 15, 20, 30)) {
  d <- round(rnorm(n, 0.02, 0.03), 6)
  while (any(duplicated(abs(d))) || any(d == 0)) d <- round(rnorm(n, 0.02, 0.03), 6)
  r <- suppressWarnings(wilcox.test(d, conf.int = TRUE, conf.level = 0.95))
  qu <- qsignrank(0.025, n); if (qu == 0) qu <- 1
  wilcoxon[[length(wilcoxon) + 1]] <- list(
    n = n, d = I(d), low = r$conf.int[1], high = r$conf.int[2],
    pvalue = r$p.value, achieved_level = 1 - 2 * psignrank(qu - 1, n))
}
sign <- list()
for (n in c(6, 8, 10, 15, 20, 30)) {
  d <- round(rnorm(n, 0.02, 0.03), 6)
  k <- qbinom(0.025, n, 0.5)
  if (pbinom(k, n, 0.5) > 0.025) k <- k - 1
  ds <- sort(d)
  sign[[length(sign) + 1]] <- list(
    n = n, d = I(d), low = ds[k + 1], high = ds[n - k],
    pvalue = binom.test(sum(d > 0), n)$p.value,
    achieved_level = 1 - 2 * pbinom(k, n, 0.5))
}
power <- list()
for (s in c(0.0125, 0.03, 0.05, 0.075, 0.1)) {
  J <- 2:12
  pw <- power.t.test(n = J, delta = 0.05, sd = s, type = "one.sample",
                     strict = TRUE)$power
  nn <- power.t.test(power = 0.8, delta = 0.05, sd = s, type = "one.sample",
                     strict = TRUE)$n
  power[[length(power) + 1]] <- list(sigma = s, J = I(J), power = I(pw),
                                     n_solve = nn, J_needed = ceiling(nn))
}
cat(to_json(list(wilcoxon = wilcoxon, sign = sign, power = power)), "\n",
    file = "intervals_power.json")
