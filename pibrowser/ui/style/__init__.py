"""The look: theme (light, dark, system), shared colours, scroll bars."""
