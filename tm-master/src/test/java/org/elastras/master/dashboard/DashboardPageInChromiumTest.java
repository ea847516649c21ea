package org.elastras.master.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.elastras.master.cluster.OtmView;
import org.elastras.master.cluster.PartitionView;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard page in a real browser (headless Chromium through the system's chromedriver)
 * against a running cluster: it shows the cluster's OTMs and partitions, its numbers change while
 * a workload runs (rates, commit latency), a tenant created through the page with the token appears
 * in the partition map, a move made through the page's form shows the partition serving on its new
 * owner in the map (and in the master, under the next epoch), a drain started with an OTM's button
 * empties its column, and the browser logs no error (a script error or a blocked off-site load
 * would be one).
 * Saves {@code target/dashboard.png}. Skipped, saying why, when Chromium or chromedriver is
 * missing ({@code .ci/run} installs both); {@code -Dchromium.binary} and {@code -Dchromedriver}
 * point to other builds.
 */
class DashboardPageInChromiumTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String TENANT = "WEBTENANT";

    @TempDir
    Path temp;

    @Test
    void pageShowsTheClusterLiveCreatesATenantMovesAPartitionAndDrainsAnOtm() throws Exception {
        File chromium = executable(System.getProperty("chromium.binary"), "/usr/bin/chromium", "/usr/bin/chromium-browser");
        File chromedriver = executable(System.getProperty("chromedriver"), "/usr/bin/chromedriver",
                "/usr/lib/chromium/chromedriver");
        assumeTrue(chromium != null, "skipped: no Chromium at /usr/bin/chromium (apt-get install chromium, or"
                + " -Dchromium.binary=PATH)");
        assumeTrue(chromedriver != null, "skipped: no chromedriver at /usr/bin/chromedriver (apt-get install"
                + " chromium-driver, or -Dchromedriver=PATH)");

        try (DashboardTestCluster cluster = new DashboardTestCluster(temp)) {
            cluster.startWorkload();
            WebDriver driver = start(chromium, chromedriver);
            try {
                WebDriverWait wait = new WebDriverWait(driver, WAIT, Duration.ofMillis(100));
                wait.ignoring(StaleElementReferenceException.class); // the page redraws its tables every second
                driver.get(cluster.dashboard.url());

                long live = cluster.master.otms().stream().filter(OtmView::live).count();
                assertEquals(cluster.otms.size(), live);
                wait.until(d -> text(d, "otm-count").equals(Long.toString(live)));
                // One row per live OTM, each with its address and alive (rows are redrawn every second).
                new WebDriverWait(driver, WAIT, Duration.ofMillis(100)).ignoring(StaleElementReferenceException.class)
                        .withMessage("a row per live OTM with its address, alive, its run in the id's tooltip").until(d -> {
                    List<WebElement> rows = d.findElements(By.cssSelector("#otm-table tbody tr"));
                    if (rows.size() != live) {
                        return false;
                    }
                    for (WebElement row : rows) {
                        OtmNode node = cluster.otms.get(row.getAttribute("data-otm"));
                        String shown = row.getText();
                        if (node == null || !shown.contains("127.0.0.1:" + node.port()) || !shown.contains("alive")
                                || !row.findElement(By.cssSelector("td.otm-id")).getAttribute("title")
                                        .startsWith("run " + node.walId() + " ")) {
                            return false;
                        }
                    }
                    return true;
                });

                int partitions = cluster.master.partitions().size();
                wait.until(d -> d.findElements(By.cssSelector("#partition-map .partition")).size() == partitions);
                assertEquals(Integer.toString(partitions), text(driver, "partition-count"));

                // Live numbers: the commit rate turns positive and the issued CTS keeps growing.
                wait.until(d -> number(text(d, "commits-per-second")) > 0);
                double issued = number(text(driver, "issued-cts"));
                wait.until(d -> number(text(d, "issued-cts")) > issued);
                wait.until(d -> !d.findElements(By.cssSelector("#hot-table tbody tr[data-partition]")).isEmpty());
                wait.until(d -> d.findElements(By.cssSelector("#event-log li[data-kind='PARTITION_OPENED']")).size()
                        >= DashboardTestCluster.PARTITIONS);
                // Commit latency from the heartbeats' histograms, and the balancer's plan.
                wait.until(d -> text(d, "latency-p50-p99").matches("[0-9.,]+ ms / [0-9.,]+ ms"));
                wait.until(d -> text(d, "balancer-plan").startsWith("balance plan at "));
                Thread.sleep(2_500); // a few more samples, so the charts in the screenshot have a line
                screenshot(driver, "dashboard-under-load.png");

                // An admin action through the page, with the token.
                driver.findElement(By.id("admin-token")).sendKeys(DashboardTestCluster.TOKEN);
                driver.findElement(By.id("tenant-name")).sendKeys(TENANT);
                driver.findElement(By.id("create-tenant")).click();
                wait.until(d -> text(d, "admin-result").contains("HTTP 201"));
                wait.until(d -> !d.findElements(By.cssSelector("#partition-map .partition[data-database='" + TENANT
                        + "'][data-state='SERVING']")).isEmpty());
                assertTrue(cluster.master.databases().containsKey(TENANT), cluster.master.databases().keySet().toString());

                // A move through the page's form, with the token: the tenant's partition to the other OTM.
                PartitionView tenant = cluster.master.partitions().stream()
                        .filter(v -> v.record().database().equals(TENANT)).findFirst().orElseThrow();
                long id = tenant.record().partitionId();
                String to = tenant.record().owner().equals("otm-1") ? "otm-2" : "otm-1";
                driver.findElement(By.id("move-partition")).sendKeys(Long.toString(id));
                driver.findElement(By.id("move-target")).sendKeys(to);
                driver.findElement(By.id("move-button")).click();
                wait.until(d -> text(d, "admin-result").contains("HTTP 202"));
                waitFor(driver, "partition " + id + " serving on " + to + " in the partition map").until(d ->
                        !d.findElements(By.cssSelector("#partition-map .owner[data-owner='" + to + "'] .partition[data-partition='"
                                + id + "'][data-state='SERVING']")).isEmpty());
                PartitionView moved = cluster.master.partitions().stream()
                        .filter(v -> v.record().partitionId() == id).findFirst().orElseThrow();
                assertEquals(to, moved.record().owner());
                assertEquals(tenant.record().epoch() + 1, moved.record().epoch());
                wait.until(d -> !d.findElements(By.cssSelector("#event-log li[data-kind='MOVE_FINISHED']")).isEmpty());
                screenshot(driver, "dashboard.png");

                // A drain through an OTM's button empties its column in the map; then it is stopped.
                String drained = to;
                waitFor(driver, "a Drain button for " + drained).until(d -> {
                    d.findElement(By.cssSelector("#otm-table button.drain[data-otm='" + drained + "'][data-drain='true']"))
                            .click();
                    return true;
                });
                wait.until(d -> text(d, "admin-result").contains("HTTP 202"));
                waitFor(driver, drained + " marked draining").until(d -> "true".equals(d.findElement(
                        By.cssSelector("#otm-table tr[data-otm='" + drained + "']")).getAttribute("data-draining")));
                waitFor(driver, drained + " owning nothing in the map").until(d ->
                        d.findElements(By.cssSelector("#partition-map .owner[data-owner='" + drained + "'] .partition")).isEmpty()
                        && d.findElements(By.cssSelector("#partition-map .partition:not([data-state='SERVING'])")).isEmpty());
                assertTrue(cluster.master.partitions().stream().noneMatch(v -> drained.equals(v.record().owner())));
                wait.until(d -> {
                    d.findElement(By.cssSelector("#otm-table button.drain[data-otm='" + drained + "'][data-drain='false']"))
                            .click();
                    return true;
                });
                waitFor(driver, drained + " no longer draining").until(d -> "false".equals(d.findElement(
                        By.cssSelector("#otm-table tr[data-otm='" + drained + "']")).getAttribute("data-draining")));
                assertTrue(cluster.master.drainingOtms().isEmpty(), cluster.master.drainingOtms().toString());

                List<LogEntry> errors = driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                        .filter(e -> e.getLevel().intValue() >= Level.SEVERE.intValue())
                        .toList();
                assertTrue(errors.isEmpty(), "the browser logged errors: " + errors);
            } finally {
                driver.quit();
            }
        }
    }

    private static WebDriver start(File chromium, File chromedriver) {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1440,1620", "--no-first-run", "--disable-extensions");
        options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(chromedriver)
                .usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** A wait of its own, so that its message does not stay on the shared one. */
    private static WebDriverWait waitFor(WebDriver driver, String message) {
        WebDriverWait wait = new WebDriverWait(driver, WAIT, Duration.ofMillis(100));
        wait.ignoring(StaleElementReferenceException.class);
        wait.withMessage(message);
        return wait;
    }

    private static File executable(String... candidates) {
        for (String c : candidates) {
            if (c != null && new File(c).canExecute()) {
                return new File(c);
            }
        }
        return null;
    }

    private static String text(WebDriver driver, String id) {
        return driver.findElement(By.id(id)).getText().trim();
    }

    /** A number as the page prints it (thousands separated by commas), or -1 for a dash. */
    private static double number(String shown) {
        try {
            return Double.parseDouble(shown.replace(",", ""));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void screenshot(WebDriver driver, String name) throws Exception {
        File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Path target = Path.of("target", name);
        Files.createDirectories(target.getParent());
        Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
    }
}
