# Reference values for sklearn_bench/stats/_effect_size.py, hand-coded in base R.
# Run from the repository root:  Rscript tests/stats/reference/effect_size.R
# Writes tests/stats/reference/effect_size.json.  R 4.2.2, base R only.
source("tests/stats/reference/_json.R")

# Cohen's d_z and its noncentral-t interval (Steiger & Fouladi 1997): the ncp with
# P(T_{n-1, ncp} <= t) = prob, by uniroot on R's pt(), divided by sqrt(n).
ncp_for <- function(t, df, prob) {
  f <- function(ncp) pt(t, df, ncp) - prob
  uniroot(f, c(t - 10 - abs(t), t + 10 + abs(t)), tol = 1e-13, extendInt = "yes")$root
}
dz_case <- function(x, y) {
  d <- x - y; n <- length(d)
  dz <- mean(d) / sd(d)
  t <- unname(t.test(x, y, paired = TRUE)$statistic)   # second route to t
  stopifnot(abs(t / sqrt(n) - dz) < 1e-12)
  ci <- function(level, alt) {
    a <- 1 - level
    tail <- if (alt == "two.sided") a / 2 else a
    lo <- if (alt == "less") -Inf else ncp_for(t, n - 1, 1 - tail) / sqrt(n)
    hi <- if (alt == "greater") Inf else ncp_for(t, n - 1, tail) / sqrt(n)
    I(c(lo, hi))
  }
  list(x = I(x), y = I(y), dz = dz,
       ci95_two_sided = ci(0.95, "two.sided"), ci90_two_sided = ci(0.90, "two.sided"),
       ci95_greater = ci(0.95, "greater"), ci95_less = ci(0.95, "less"))
}

# Matched-pairs rank-biserial: Kerby's simple difference (R+ - R-)/(n(n+1)/2), and
# for zeros dropped the King & Minium route from wilcox.test's V: 4V/(n(n+1)) - 1.
rb_case <- function(x, y) {
  d <- round(x - y, 10)
  nz <- d[d != 0]; n <- length(nz)
  r <- rank(abs(nz))
  wilcox <- (sum(r[nz > 0]) - sum(r[nz < 0])) / (n * (n + 1) / 2)
  V <- unname(suppressWarnings(wilcox.test(d, exact = FALSE))$statistic)  # on rounded d
  stopifnot(abs(wilcox - (4 * V / (n * (n + 1)) - 1)) < 1e-12)
  ra <- rank(abs(d)); N <- length(d)                       # zeros ranked
  pratt <- (sum(ra[d > 0]) - sum(ra[d < 0])) / (N * (N + 1) / 2)
  zsplit <- pratt                                           # zero ranks split: cancel
  dd <- d; if (sum(d == 0) %% 2 == 1) dd <- d[-which(d == 0)[1]]
  rd <- rank(abs(dd)); M <- length(dd)
  demsar <- (sum(rd[dd > 0]) - sum(rd[dd < 0])) / (M * (M + 1) / 2)
  list(x = I(x), y = I(y), wilcox = wilcox, pratt = pratt, zsplit = zsplit,
       demsar = demsar, sign_dominance = (sum(d > 0) - sum(d < 0)) / length(d))
}

# Cliff's delta: mean sign of all x_i - y_j, and 2W/(nx ny) - 1 from wilcox.test's W.
cliff_case <- function(x, y) {
  delta <- mean(sign(round(outer(x, y, "-"), 10)))
  W <- unname(suppressWarnings(wilcox.test(round(x, 10), round(y, 10), exact = FALSE))$statistic)
  stopifnot(abs(delta - (2 * W / (length(x) * length(y)) - 1)) < 1e-12)
  list(x = I(x), y = I(y), delta = delta)
}

set.seed(20261123)
x1 <- round(runif(12, 0.1, 0.3), 3); y1 <- round(x1 + rnorm(12, 0.02, 0.03), 3)
x2 <- round(runif(30, 0.6, 0.9), 2); y2 <- round(x2 + rnorm(30, -0.01, 0.02), 2)
x3 <- c(0.864, 0.872, 0.869, 0.730, 0.820, 0.712, 0.891, 0.787, 0.754)
y3 <- c(0.857, 0.849, 0.848, 0.697, 0.791, 0.715, 0.866, 0.725, 0.719)
x4 <- round(rnorm(5, 0, 1), 4); y4 <- round(rnorm(5, 3, 1), 4)   # a large d_z
x5 <- round(rnorm(60), 3); y5 <- round(rnorm(60, 0.05), 3)         # n = 60, tiny d
cases <- list(
  dz = list(dz_case(x1, y1), dz_case(x2, y2), dz_case(x3, y3), dz_case(x4, y4),
            dz_case(x5, y5)),
  rank_biserial = list(rb_case(x1, y1), rb_case(x2, y2), rb_case(x3, y3),
                       rb_case(x5, y5)),
  cliff = list(cliff_case(x1, y1), cliff_case(x2, y2[1:17]),
               cliff_case(round(runif(8), 1), round(runif(11), 1)))
)
cases$meta <- list(generator = "tests/stats/reference/effect_size.R",
                   R = R.version.string)
writeLines(to_json(cases), "tests/stats/reference/effect_size.json")

# Kendall's W with ties (Kendall's correction), from the rank matrix only:
# W = 12 S / (m^2 (n^3 - n) - m sum(t^3 - t)), m blocks ("raters"), n learners.
kendall_case <- function(scores) {
  R <- t(apply(scores, 1, rank)); m <- nrow(R); n <- ncol(R)
  S <- sum((colSums(R) - m * (n + 1) / 2)^2)
  Tt <- sum(apply(R, 1, function(r) { t <- table(r); sum(t^3 - t) }))
  list(scores = scores, w = 12 * S / (m^2 * (n^3 - n) - m * Tt),
       w_no_ties = 12 * S / (m^2 * (n^3 - n)))
}
set.seed(1939)
kendall <- list(kendall_case(matrix(round(runif(40), 1), 10, 4)),
                kendall_case(matrix(runif(60), 12, 5)),
                kendall_case(rbind(c(1, 2, 3), c(1, 3, 2), c(1, 2, 3), c(2, 1, 3))))
cases$kendall <- kendall
writeLines(to_json(cases), "tests/stats/reference/effect_size.json")
