package dev.rowflow.pipeline.runtime;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

import javax.security.auth.login.LoginException;
import java.io.IOException;
import java.net.ConnectException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which setting a failed Kerberos login names, from the errors the JDK and Hadoop give (the texts
 * are theirs: Hadoop wraps the JDK's LoginException in its KerberosAuthException, an IOException).
 * The failures a real KDC can be made to give are in KerberosPipelineIT; a skewed clock cannot be
 * made there, so its mapping is checked here.
 */
class KerberosLoginTest {
    private static final String KEYTAB = "/etc/rowflow/hbase-keytab/rowflow.keytab";
    private static final String PRINCIPAL = "rowflow@EXAMPLE.COM";

    /** A login failure as Hadoop's UserGroupInformation.loginUserFromKeytab throws it. */
    private static IOException hadoopLoginFailure(String jdkMessage) {
        LoginException jdk = new LoginException(jdkMessage);
        return new IOException("Login failure for user: " + PRINCIPAL + " from keytab " + KEYTAB + " "
                + jdk, jdk);
    }

    private static ConfigException refusal(Throwable e) {
        return KerberosLogin.refusal("hbase.client.keytab.file", KEYTAB, "hbase.client.keytab.principal", PRINCIPAL, e);
    }

    @Test
    void shouldNameTheSettingAtFaultInTheJdksWords() {
        assertThat(refusal(hadoopLoginFailure("Client not found in Kerberos database (6) - Client not found in "
                + "Kerberos database"))).hasMessage("Invalid value rowflow@EXAMPLE.COM for configuration "
                + "hbase.client.keytab.principal: the KDC does not know this principal (Client not found in Kerberos "
                + "database (6) - Client not found in Kerberos database)");
        // Kerby answers a skewed pre-authentication timestamp with 24, as it answers a stale key.
        assertThat(refusal(hadoopLoginFailure("Pre-authentication information was invalid (24)"))).hasMessage(
                "Invalid value " + KEYTAB + " for configuration hbase.client.keytab.file: the KDC refused its key for "
                        + PRINCIPAL + ": a stale keytab (the principal's key changed) or this host's clock differs from "
                        + "the KDC's by more than the allowed skew (Pre-authentication information was invalid (24))");
        // An MIT KDC names the skew.
        assertThat(refusal(hadoopLoginFailure("Clock skew too great (37) - PROCESS_TGS"))).hasMessage(
                "Invalid value /etc/krb5.conf for configuration java.security.krb5.conf: this host's clock differs "
                        + "from the KDC's by more than the allowed skew (Clock skew too great (37) - PROCESS_TGS)");
        assertThat(refusal(new IOException("Login failure", new LoginException("Connection refused") {
            {
                initCause(new ConnectException("Connection refused"));
            }
        }))).hasMessage("Invalid value /etc/krb5.conf for configuration java.security.krb5.conf: the KDC of "
                + "EXAMPLE.COM is unreachable (java.net.ConnectException: Connection refused)");
        assertThat(refusal(hadoopLoginFailure("Unable to obtain password from user\n"))).hasMessage("Invalid value "
                + KEYTAB + " for configuration hbase.client.keytab.file: holds no usable key for " + PRINCIPAL);
    }
}
