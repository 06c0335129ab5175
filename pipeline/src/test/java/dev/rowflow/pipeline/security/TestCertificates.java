package dev.rowflow.pipeline.security;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Certificates for a TLS broker, made with the JDK's keytool as an operator would. */
public final class TestCertificates {
    private TestCertificates() {
    }

    /**
     * Writes a CA, a broker keystore ({@code broker}: its key and a certificate the CA signs for
     * 127.0.0.1 and localhost), a truststore with the CA and one with another CA, all PKCS12 under
     * {@code password}; intermediate files go to {@code dir}.
     */
    public static void create(Path dir, String password, Path broker, Path truststore, Path otherTruststore) throws Exception {
        Path ca = dir.resolve("ca.p12");
        Path otherCa = dir.resolve("other-ca.p12");
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=rowflow test CA",
                "-ext", "bc:c", "-validity", "2", "-keystore", ca.toString(), "-storetype", "PKCS12", "-storepass", password);
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=some other CA",
                "-ext", "bc:c", "-validity", "2", "-keystore", otherCa.toString(), "-storetype", "PKCS12", "-storepass", password);
        keytool("-exportcert", "-alias", "ca", "-keystore", ca.toString(), "-storepass", password, "-rfc",
                "-file", dir.resolve("ca.pem").toString());
        keytool("-exportcert", "-alias", "ca", "-keystore", otherCa.toString(), "-storepass", password, "-rfc",
                "-file", dir.resolve("other-ca.pem").toString());
        keytool("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost",
                "-validity", "2", "-keystore", broker.toString(), "-storetype", "PKCS12", "-storepass", password);
        keytool("-certreq", "-alias", "broker", "-keystore", broker.toString(), "-storepass", password,
                "-file", dir.resolve("broker.csr").toString());
        keytool("-gencert", "-alias", "ca", "-keystore", ca.toString(), "-storepass", password, "-validity", "2",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-infile", dir.resolve("broker.csr").toString(), "-rfc",
                "-outfile", dir.resolve("broker.pem").toString());
        keytool("-importcert", "-alias", "ca", "-file", dir.resolve("ca.pem").toString(), "-keystore", broker.toString(),
                "-storepass", password, "-noprompt");
        keytool("-importcert", "-alias", "broker", "-file", dir.resolve("broker.pem").toString(),
                "-keystore", broker.toString(), "-storepass", password, "-noprompt");
        keytool("-importcert", "-alias", "ca", "-file", dir.resolve("ca.pem").toString(), "-keystore", truststore.toString(),
                "-storetype", "PKCS12", "-storepass", password, "-noprompt");
        keytool("-importcert", "-alias", "ca", "-file", dir.resolve("other-ca.pem").toString(),
                "-keystore", otherTruststore.toString(), "-storetype", "PKCS12", "-storepass", password, "-noprompt");
    }

    /** Runs the JDK's keytool with {@code args}; fails the test with its output if it fails. */
    public static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as("keytool %s: %s", String.join(" ", args), output).isZero();
    }
}
